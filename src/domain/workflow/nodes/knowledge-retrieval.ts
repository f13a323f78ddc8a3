import { z } from 'zod';
import { SearchMode } from '../../../../schemas/retrieval.ts';
import { numberedPassages } from '../../chat/prompt.ts';
import { notFoundMessage } from '../../shared/errors.ts';
import { render } from '../templates.ts';
import { defineNodeType, lookup, NodeFailure, template } from './node-type.ts';

export const KnowledgeRetrievalConfig = z.strictObject({
  knowledge_base_id: z.string().min(1).max(200),
  query: template,
  top_k: z.int().min(1).max(100).optional(),
  score_threshold: z.number().min(0).max(1).optional(),
  mode: SearchMode.optional(),
  rerank: z.boolean().optional(),
});
export type KnowledgeRetrievalConfig = z.infer<typeof KnowledgeRetrievalConfig>;

/**
 * Retrieves through the same retrieveContext as chat (same pipeline, same context budget, same
 * numbering and citations), so the knowledge-qa workflow cites what /v1/chat/completions would cite.
 * Its knowledge base is what a workflow and its runs belong to for access.
 */
export const knowledgeRetrieval = defineNodeType({
  type: 'knowledge_retrieval',
  config: KnowledgeRetrievalConfig,
  outputs: () => ['context', 'passages', 'citations', 'answerable', 'coverage', 'language'],
  templates: ['query'],
  names: { knowledgeBases: ['knowledge_base_id'] },
  runOutputs: { citations: 'citations' },
  async run({ config, scope, services, signal }) {
    const query = render(config.query, lookup(scope));
    const { top_k: topK, score_threshold: scoreThreshold, mode, rerank } = config;
    const request = { workspaceId: scope.workspaceId, knowledgeBaseId: config.knowledge_base_id, query, topK, scoreThreshold, mode, rerank };
    const retrieved = await services.retrieve(request, signal);
    // Another workspace's knowledge base answers exactly like a missing one.
    if (!retrieved) throw new NodeFailure('knowledge_base_not_found', notFoundMessage('knowledge_base', config.knowledge_base_id));
    const { passages, citations, answerable, coverage, language = null } = retrieved;
    return { context: numberedPassages(passages), passages, citations, answerable, coverage, language };
  },
});
