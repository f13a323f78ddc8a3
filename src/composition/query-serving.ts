import type { MetadataCatalog } from '../app/retrieval/metadata-catalog.ts';
import { createRetrieval, type SearchIndexes } from '../app/retrieval/retrieval.ts';
import { createChatGrounding } from '../app/services/chat-grounding.ts';
import type { ReadModelStore } from '../ports/read-models.ts';
import type { Analyzer } from '../ports/analyzer.ts';
import type { WorkspaceModelResolver } from '../app/services/workspace-models.ts';
import type { createModels } from './models.ts';

export type QueryServingDeps = {
  readModels: ReadModelStore;
  indexes: SearchIndexes;
  analyzer: Analyzer;
  models: Awaited<ReturnType<typeof createModels>>;
  metadataCatalog: MetadataCatalog;
  maxContextTokens: number;
  /** The workspaces' provider models that knowledge bases name for embedding and rerank. */
  workspaceModels: Pick<WorkspaceModelResolver, 'embedder' | 'reranker'>;
};

/**
 * What serves queries, built the same way in every process that serves them (the main process,
 * and each query process of query-offload.ts): retrieval, and a chat's grounding over it.
 */
export function createQueryServing({ readModels, indexes, analyzer, models, metadataCatalog, maxContextTokens, workspaceModels }: QueryServingDeps) {
  const { embedders, rerankers, defaultReranker, chatModels } = models;
  const retrieval = createRetrieval({ readModels, indexes, analyzer, embedders, rerankers, defaultReranker, workspaceModels, metadataCatalog, maxContextTokens });
  return { ...retrieval, groundChat: createChatGrounding({ analyzer, retrieval, chatModels }) };
}
