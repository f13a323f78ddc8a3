import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import type { Recall, RecallList } from '../../domain/retrieval/fusion.ts';
import { fallbackWarning, type RetrievalWarning } from './recall-fallback.ts';
import { mergeRankings } from '../../domain/retrieval/merge.ts';
import type { EntityGraph } from '../../ports/entity-graph.ts';
import type { Analyzer } from '../../ports/analyzer.ts';
import type { KeywordIndex } from '../../ports/keyword-index.ts';
import type { Embedder, Reranker } from '../../ports/models.ts';
import type { PassageStore } from '../../ports/passage-store.ts';
import type { ReadModelStore } from '../../ports/read-models.ts';
import type { IndexFilter, VectorIndex } from '../../ports/vector-index.ts';
import type { WorkspaceModelResolver } from '../services/workspace-models.ts';
import { type Answerability, answerabilityGate } from './answerability.ts';
import { contextOf, type RetrievedContext } from './retrieved-context.ts';
import { graphRetriever } from './graph-retriever.ts';
import { presentHits, type SearchHit } from './hits.ts';
import { keywordRetriever } from './keyword-retriever.ts';
import type { MetadataCatalog } from './metadata-catalog.ts';
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
  /** The embedding and rerank models of the knowledge base's workspace's providers (`{provider}/{model}`). */
  workspaceModels?: Pick<WorkspaceModelResolver, 'embedder' | 'reranker'>;
  metadataCatalog: MetadataCatalog;
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
    vector: vectorRetriever(indexes.vectors, deps.embedders, deps.workspaceModels),
    keyword: keywordRetriever(indexes.keywords),
    graph: graphRetriever(indexes.graph, readModels),
  };
  const answerability = answerabilityGate(indexes.keywords, deps.analyzer);
  /** After recall, in order. Another stage (an answerability gate, say) is one more entry. */
  const stages: readonly Stage[] = [fusionStage, rerankStage(deps.rerankers, deps.defaultReranker, deps.workspaceModels), thresholdStage];

  /** Metadata conditions become document ids, the filter every index applies natively; with ids too, both must hold. */
  async function indexFilter(kb: KnowledgeBaseDoc, filter: RetrievalRequest['filter']): Promise<IndexFilter> {
    if (!filter?.metadata) return filter?.documentIds ? { documentIds: filter.documentIds } : {};
    const matching = await deps.metadataCatalog.documentIds(kb.id, filter.metadata);
    const wanted = filter.documentIds ? new Set(filter.documentIds) : null;
    return { documentIds: wanted ? matching.filter((id) => wanted.has(id)) : matching };
  }

  type Retrieved = { hits: SearchHit[]; warnings: RetrievalWarning[] };

  async function retrieve(kb: KnowledgeBaseDoc, request: RetrievalRequest, signal?: AbortSignal): Promise<Retrieved> {
    const options = optionsFor(request, kb.settings);
    const filter = await indexFilter(kb, request.filter);
    if (filter.documentIds?.length === 0) return { hits: [], warnings: [] };
    const query = { text: request.query, kb, depth: Math.max(RECALL_DEPTH, options.topK), filter, signal };
    const warnings: RetrievalWarning[] = [];
    // A recall whose provider is down leaves the others to answer, and the answer says so (recall-fallback.ts).
    const recall = async (name: Recall): Promise<RecallList> => {
      try {
        return { recall: name, matches: await retrievers[name].retrieve(query) };
      } catch (error) {
        const warning = fallbackWarning(name, options.recalls, error);
        if (!warning) throw error;
        warnings.push(warning);
        return { recall: name, matches: [] };
      }
    };
    const lists = await Promise.all(options.recalls.map(recall));
    const passages = passageCache(indexes.passages, kb.id);
    let state: RetrievalState = { query: request.query, kb, options, lists, ranked: [] };
    for (const stage of stages) state = { ...state, ranked: await stage.run(state, { passages, signal }) };
    return { hits: await presentHits(state.ranked, options.topK, passages, readModels, request.asOf), warnings };
  }

  const none: Retrieved = { hits: [], warnings: [] };
  /** The context with what it was made without, when anything was (no field otherwise). */
  const withWarnings = (context: RetrievedContext, warnings: readonly RetrievalWarning[]): RetrievedContext => (warnings.length > 0 ? { ...context, warnings: [...warnings] } : context);

  type ContextOptions = { signal?: AbortSignal; maxContextTokens?: number };

  /**
   * The hits for the request (defaults from the knowledge base), whether they can answer it, and
   * the best of them that fit the prompt as numbered passages with their citations. A blank
   * query retrieves nothing.
   */
  async function retrieveContext(kb: KnowledgeBaseDoc, request: RetrievalRequest, options: ContextOptions = {}): Promise<RetrievedContext> {
    const { hits, warnings } = request.query.trim() ? await retrieve(kb, request, options.signal) : none;
    return withWarnings(contextOf(hits, options.maxContextTokens ?? deps.maxContextTokens, await answerability(kb, request.query, hits)), warnings);
  }

  return {
    retrieveContext,

    /**
     * The same over several knowledge bases: each is searched with its own settings, its hits
     * merged with the others' (domain/retrieval/merge.ts: by score when the knowledge bases embed
     * and rerank with the same models, else by rank), `topK` of them kept (the
     * request's, else the largest of the knowledge bases'). Each knowledge base's gate weighs the
     * question's terms by its own statistics over its own hits; the question is answerable when one
     * of them answers it, with the coverage of the best that does (else of the best of all).
     */
    async retrieveContextAcross(kbs: readonly KnowledgeBaseDoc[], request: RetrievalRequest, options: ContextOptions = {}): Promise<RetrievedContext> {
      if (kbs.length === 1) return retrieveContext(kbs[0]!, request, options);
      const each = await Promise.all(
        kbs.map(async (kb) => {
          const { hits, warnings } = request.query.trim() ? await retrieve(kb, request, options.signal) : none;
          return { hits, warnings, gate: await answerability(kb, request.query, hits) };
        }),
      );
      const topK = request.topK ?? Math.max(...kbs.map((kb) => kb.settings.top_k));
      const hits = mergeRankings(
        each.map((e) => e.hits),
        scoresCompare(kbs),
      ).slice(0, topK);
      const context = contextOf(hits, options.maxContextTokens ?? deps.maxContextTokens, bestGate(each.map((e) => e.gate)));
      return withWarnings(context, each.flatMap((e) => e.warnings));
    },
  };
}

/** Scores compare across knowledge bases that embed, and rerank, with the same models. */
function scoresCompare(kbs: readonly KnowledgeBaseDoc[]): boolean {
  const models = (kb: KnowledgeBaseDoc) => `${kb.settings.embedding_model} ${kb.settings.rerank.model ?? ''}`;
  return kbs.every((kb) => models(kb) === models(kbs[0]!));
}

/** The answering gate with the highest coverage, else the highest coverage of all. */
function bestGate(gates: readonly Answerability[]): Answerability {
  const pool = gates.some((g) => g.answerable) ? gates.filter((g) => g.answerable) : gates;
  return pool.reduce((best, g) => (g.coverage > best.coverage ? g : best));
}
