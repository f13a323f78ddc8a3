import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import type { NodeOfType } from '../../../schemas/workflow.ts';
import { fitContext, numberedPassages } from '../../domain/chat/prompt.ts';
import { underHeadings } from '../../domain/retrieval/passage-text.ts';
import { notFoundMessage } from '../../domain/shared/errors.ts';
import { render } from '../../domain/workflow/templates.ts';
import type { ContextPassage } from '../../ports/models.ts';
import type { Citation } from '../services/chat.ts';
import { lookup, NodeFailure, type EngineDeps, type NodeOutputs, type RunScope } from './types.ts';

/**
 * Retrieves and numbers passages exactly as chat does (same search, same context budget, same
 * rendering), so the knowledge-qa workflow cites what /v1/chat/completions would cite.
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
  const hits = query.trim()
    ? await deps.search.searchKnowledgeBase(
        kb,
        { query, topK: config.top_k, scoreThreshold: config.score_threshold, mode: config.mode, rerank: config.rerank },
        signal,
      )
    : [];
  const chosen = fitContext(
    hits.map((hit) => ({ hit, text: underHeadings(hit.headingPath, hit.paragraph) })),
    deps.maxContextTokens,
  );
  const passages: ContextPassage[] = chosen.map(({ hit, text }, i) => ({ index: i + 1, text, source: hit.source, page: hit.page }));
  const citations: Citation[] = chosen.map(({ hit }, i) => ({
    index: i + 1,
    source: hit.source,
    page: hit.page,
    paragraph: hit.paragraph,
    document_id: hit.documentId,
    chunk_id: hit.chunkId,
    score: hit.score,
  }));
  return { context: numberedPassages(passages), passages, citations };
}
