import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import type { Recall, RecallList } from '../../domain/retrieval/fusion.ts';
import type { EntityGraph } from '../../ports/entity-graph.ts';
import type { Analyzer } from '../../ports/analyzer.ts';
import type { KeywordIndex } from '../../ports/keyword-index.ts';
import type { Embedder, Reranker } from '../../ports/models.ts';
import type { PassageStore } from '../../ports/passage-store.ts';
import type { ReadModelStore } from '../../ports/read-models.ts';
import type { IndexFilter, VectorIndex } from '../../ports/vector-index.ts';
import { answerabilityGate } from './answerability.ts';
import { contextOf, type RetrievedContext } from './context.ts';
import { graphRetriever } from './graph-retriever.ts';
import { presentHits, type SearchHit } from './hits.ts';
import { keywordRetriever } from './keyword-retriever.ts';
import type { MetadataFilter } from './metadata-filter.ts';
import { optionsFor, type RetrievalRequest } from './options.ts';
import { passageCache } from './passage-cache.ts';
import { rerankStage } from './rerank-stage.ts';
import type { Retriever } from './retriever.ts';
import { fusionStage, type RetrievalState, type Stage, thresholdStage } from './stages.ts';
import { vectorRetriever } from './vector-retriever.ts';

export type SearchIndexes = { vectors: VectorIndex; keywords: KeywordIndex; graph: EntityGraph; passages: PassageStore };

export type RetrievalDeps = {
  readModels: ReadModelStore;
  indexes: SearchIndexes;
  /** The keyword index's analyzer: answerability reads passages as the index reads them. */
  analyzer: Analyzer;
  embedders: ReadonlyMap<string, Embedder>;
  rerankers: ReadonlyMap<string, Reranker>;
  defaultReranker: string;
  metadataFilter: MetadataFilter;
  /** The prompt's budget for passages (KBQA_CHAT_MAX_CONTEXT_TOKENS), unless a caller gives its own. */
  maxContextTokens: number;
};

/** Each recall fetches this many, so fusion and rerank see past the first page. */
const RECALL_DEPTH = 100;

/**
 * Retrieval, one way for every caller: the enabled retrievers in parallel, then the stages in
 * order, then the hits (passages read once, deleted documents dropped), then the context.
 */
export function createRetrieval(deps: RetrievalDeps) {
  const { readModels, indexes } = deps;
  const retrievers: Record<Recall, Retriever> = {
    vector: vectorRetriever(indexes.vectors, deps.embedders),
    keyword: keywordRetriever(indexes.keywords),
    graph: graphRetriever(indexes.graph, readModels),
  };
  const answerability = answerabilityGate(indexes.keywords, deps.analyzer);
  /** After recall, in order. Another stage (an answerability gate, say) is one more entry. */
  const stages: readonly Stage[] = [fusionStage, rerankStage(deps.rerankers, deps.defaultReranker), thresholdStage];

  /** Metadata conditions become document ids, the filter every index applies natively; with ids too, both must hold. */
  async function indexFilter(kb: KnowledgeBaseDoc, filter: RetrievalRequest['filter']): Promise<IndexFilter> {
    if (!filter?.metadata || Object.keys(filter.metadata).length === 0) return filter?.documentIds ? { documentIds: filter.documentIds } : {};
    const matching = await deps.metadataFilter.documentIds(kb.id, filter.metadata);
    const wanted = filter.documentIds ? new Set(filter.documentIds) : null;
    return { documentIds: wanted ? matching.filter((id) => wanted.has(id)) : matching };
  }

  async function retrieve(kb: KnowledgeBaseDoc, request: RetrievalRequest, signal?: AbortSignal): Promise<SearchHit[]> {
    const options = optionsFor(request, kb.settings);
    const filter = await indexFilter(kb, request.filter);
    if (filter.documentIds?.length === 0) return [];
    const query = { text: request.query, kb, depth: Math.max(RECALL_DEPTH, options.topK), filter, signal };
    const lists = await Promise.all(options.recalls.map(async (recall): Promise<RecallList> => ({ recall, matches: await retrievers[recall].retrieve(query) })));
    const passages = passageCache(indexes.passages, kb.id);
    let state: RetrievalState = { query: request.query, kb, options, lists, ranked: [] };
    for (const stage of stages) state = { ...state, ranked: await stage.run(state, { passages, signal }) };
    return presentHits(state.ranked, options.topK, passages, readModels);
  }

  return {
    /**
     * The hits for the request (defaults from the knowledge base), whether they can answer it, and
     * the best of them that fit the prompt as numbered passages with their citations. A blank
     * query retrieves nothing.
     */
    async retrieveContext(kb: KnowledgeBaseDoc, request: RetrievalRequest, options: { signal?: AbortSignal; maxContextTokens?: number } = {}): Promise<RetrievedContext> {
      const hits = request.query.trim() ? await retrieve(kb, request, options.signal) : [];
      return contextOf(hits, options.maxContextTokens ?? deps.maxContextTokens, await answerability(kb, request.query, hits));
    },
  };
}
