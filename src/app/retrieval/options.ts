import type { KnowledgeBaseSettings } from '../../../schemas/knowledge-base-settings.ts';
import { Recall, type SearchMode } from '../../../schemas/retrieval.ts';
import type { MetadataFilter } from '../../domain/retrieval/metadata-filter.ts';
import { badRequest } from '../errors.ts';
import type { RetrievalOptions } from './stages.ts';

export type { SearchMode };

export type { MetadataConditions, MetadataValue } from '../../domain/retrieval/metadata-filter.ts';

/** What a caller asks; what it leaves out, the knowledge base's settings decide. */
export type RetrievalRequest = {
  query: string;
  topK?: number;
  scoreThreshold?: number;
  mode?: SearchMode;
  rerank?: boolean;
  /** Metadata in the filter grammar (src/domain/retrieval/metadata-filter.ts); with ids too, both must hold. */
  filter?: { documentIds?: string[]; metadata?: MetadataFilter };
  /** The knowledge base as it stood then (an ISO time, validated: domain/document/as-of.ts); absent: now. */
  asOf?: string;
};

export function optionsFor(request: RetrievalRequest, settings: KnowledgeBaseSettings): RetrievalOptions {
  return {
    recalls: recallsFor(request.mode, settings),
    topK: request.topK ?? settings.top_k,
    threshold: request.scoreThreshold ?? settings.score_threshold,
    rerank: request.rerank ?? settings.rerank.enabled,
  };
}

/** An explicit mode wins; hybrid (or no mode) means the recalls the knowledge base enables. */
export function recallsFor(mode: SearchMode | undefined, settings: KnowledgeBaseSettings): Recall[] {
  if (mode && mode !== 'hybrid') return [mode];
  const enabled = Recall.options.filter((r) => settings.recall[r]);
  if (enabled.length === 0) throw badRequest('no_recall_enabled', 'The knowledge base enables no recall; enable one in its settings or pass a mode.', 'mode');
  return enabled;
}
