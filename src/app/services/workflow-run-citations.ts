import type { WorkflowRunDoc } from '../../../projections/workflow-runs/index.ts';
import { type Citation, quotedCitations } from '../retrieval/retrieved-context.ts';

const sameChunk = (c: Pick<Citation, 'knowledge_base_id' | 'document_id' | 'chunk_id'>) => `${c.knowledge_base_id}\u0000${c.document_id}\u0000${c.chunk_id}`;

/**
 * The citations a run's answer may carry into a chat: only those its own retrieval gave. A run's
 * `citations` output is whatever its graph put there (an end node can hand on a code node's
 * result), so it is a choice among passages, never a source of them: each one must be a citation
 * that a knowledge_retrieval node of this very run returned, over a knowledge base the run belongs
 * to (its version's, recorded when it was requested). What the run says beyond that choice is not
 * trusted either: the citation is the retrieval's own, pointed at the answer's quote of it as the
 * runner points it (quotedCitations). Anything else is dropped: a forged citation would otherwise
 * make the landing page serve another knowledge base's page. A retrieval inside an iteration records
 * no node of its own, so its citations do not count.
 */
export function retrievedCitations(run: Pick<WorkflowRunDoc, 'node_runs' | 'knowledge_base_ids'>, cited: unknown, answer: string): Citation[] {
  if (!Array.isArray(cited)) return [];
  const belongs = (kbId: string) => run.knowledge_base_ids === null || run.knowledge_base_ids.includes(kbId);
  const retrieved = new Map<string, Citation>();
  for (const node of run.node_runs) {
    if (node.node_type !== 'knowledge_retrieval' || node.status !== 'succeeded' || !Array.isArray(node.outputs?.citations)) continue;
    for (const c of node.outputs.citations as Citation[]) if (belongs(c.knowledge_base_id)) retrieved.set(sameChunk(c), { ...c, boxes: c.boxes ?? [] });
  }
  const chosen = new Map<string, Citation>();
  for (const c of cited as unknown[]) {
    if (!c || typeof c !== 'object') continue;
    const own = retrieved.get(sameChunk(c as Citation));
    if (own) chosen.set(sameChunk(own), own);
  }
  const own = [...chosen.values()];
  const quoted = quotedCitations(own, answer);
  return quoted.length > 0 ? quoted : own;
}
