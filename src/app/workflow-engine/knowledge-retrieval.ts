import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import type { NodeOfType } from '../../../schemas/workflow.ts';
import { numberedPassages } from '../../domain/chat/prompt.ts';
import { notFoundMessage } from '../../domain/shared/errors.ts';
import { render } from '../../domain/workflow/templates.ts';
import { lookup, NodeFailure, type EngineDeps, type NodeOutputs, type RunScope } from './types.ts';

/**
 * Retrieves through the same retrieveContext as chat (same pipeline, same context budget, same
 * numbering and citations), so the knowledge-qa workflow cites what /v1/chat/completions would cite.
 */
export async function runKnowledgeRetrieval(
  node: NodeOfType<'knowledge_retrieval'>,
  scope: RunScope,
  deps: EngineDeps,
  signal: AbortSignal,
): Promise<NodeOutputs> {
  const { config } = node;
  const kb = await deps.ctx.readModels.get<KnowledgeBaseDoc>('knowledge_bases', config.knowledge_base_id);
  // Another workspace's knowledge base answers exactly like a missing one.
  if (!kb || kb.workspace_id !== scope.workspaceId) {
    throw new NodeFailure('knowledge_base_not_found', notFoundMessage('knowledge_base', config.knowledge_base_id));
  }
  const query = render(config.query, lookup(scope));
  const { passages, citations, answerable, coverage } = await deps.search.retrieveContext(
    kb,
    { query, topK: config.top_k, scoreThreshold: config.score_threshold, mode: config.mode, rerank: config.rerank },
    { signal, maxContextTokens: deps.maxContextTokens },
  );
  return { context: numberedPassages(passages), passages, citations, answerable, coverage };
}
