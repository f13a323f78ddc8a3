import type { DocumentDoc } from '../../../projections/documents/index.ts';
import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import type { KnowledgeBaseSettings } from '../../../schemas/knowledge-base-settings.ts';
import { type Candidate, fuseByReciprocalRank, type Recall, type RecallList } from '../../domain/retrieval/fusion.ts';
import { entityCandidates, entityWeights } from '../../domain/retrieval/graph-query.ts';
import { underHeadings } from '../../domain/retrieval/passage-text.ts';
import type { EntityGraph } from '../../ports/entity-graph.ts';
import type { KeywordIndex } from '../../ports/keyword-index.ts';
import type { Embedder, Reranker } from '../../ports/models.ts';
import type { Passage, PassageStore } from '../../ports/passage-store.ts';
import type { ReadModelStore } from '../../ports/read-models.ts';
import type { IndexFilter, VectorIndex } from '../../ports/vector-index.ts';
import { ApiError, badRequest } from '../errors.ts';
import { requireKnowledgeBase } from './knowledge-base-access.ts';
import { withTotals } from './knowledge-base-totals.ts';
import type { Principal } from './principal.ts';

export type SearchMode = 'hybrid' | Recall;

export type SearchRequest = {
  query: string;
  topK?: number;
  scoreThreshold?: number;
  mode?: SearchMode;
  rerank?: boolean;
  filter?: { documentIds?: string[]; metadata?: Record<string, MetadataValue | MetadataValue[]> };
};
type MetadataValue = string | number | boolean;

export type StageScores = { vector: number | null; keyword: number | null; graph: number | null; fused: number | null; rerank: number | null };

export type SearchHit = {
  chunkId: string;
  documentId: string;
  source: string;
  page: number;
  paragraph: string;
  headingPath: string[];
  score: number;
  scores: StageScores;
};

export type SearchIndexes = { vectors: VectorIndex; keywords: KeywordIndex; graph: EntityGraph; passages: PassageStore };

export type SearchDeps = {
  readModels: ReadModelStore;
  indexes: SearchIndexes;
  embedders: ReadonlyMap<string, Embedder>;
  rerankers: ReadonlyMap<string, Reranker>;
  defaultReranker: string;
};

/** Each recall fetches this many, so fusion and rerank see past the first page. */
const RECALL_DEPTH = 100;
/** How far down the fused list the reranker reads. */
export const RERANK_DEPTH = 50;
/** Neighbours of a question's entities count for less than the entities themselves. */
const NEIGHBOUR_WEIGHT = 0.3;

export function createSearchService(deps: SearchDeps) {
  const { readModels, indexes } = deps;

  const knowledgeBase = (principal: Principal, kbId: string) => requireKnowledgeBase(readModels, principal, kbId);

  /** Metadata filters become document ids (every adapter can filter on those natively). */
  async function resolveFilter(kb: KnowledgeBaseDoc, filter: SearchRequest['filter']): Promise<IndexFilter> {
    if (!filter?.metadata || Object.keys(filter.metadata).length === 0) return filter?.documentIds ? { documentIds: filter.documentIds } : {};
    const conditions = Object.entries(filter.metadata);
    const docs = await readModels.find<DocumentDoc>('documents', { where: { knowledge_base_id: kb.id, status: 'ready' }, limit: 100_000 });
    const wanted = filter.documentIds ? new Set(filter.documentIds) : null;
    const documentIds = docs
      .filter((d) => (!wanted || wanted.has(d.id)) && conditions.every(([key, expected]) => matches(d.metadata[key], expected)))
      .map((d) => d.id);
    return { documentIds };
  }

  async function vectorRecall(kb: KnowledgeBaseDoc, query: string, depth: number, filter: IndexFilter): Promise<RecallList> {
    const embedder = deps.embedders.get(kb.settings.embedding_model);
    if (!embedder) throw new ApiError(503, 'server_error', 'model_unavailable', `Embedding model ${kb.settings.embedding_model} is not available.`);
    const [vector] = await embedder.embed([query]);
    const matches = await indexes.vectors.query(kb.id, vector!, depth, filter);
    return { recall: 'vector', matches };
  }

  async function graphRecall(kb: KnowledgeBaseDoc, query: string, depth: number, filter: IndexFilter): Promise<RecallList> {
    const counts = await indexes.graph.mentionCounts(kb.id, entityCandidates(query));
    const [withCounts] = await withTotals(readModels, [kb]);
    const weights = entityWeights(counts, withCounts!.chunk_count);
    const asked = [...weights.values()].reduce((a, b) => a + b, 0);
    if (asked === 0) return { recall: 'graph', matches: [] };
    const walk = new Map(weights);
    const strongest = [...weights.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3);
    for (const [entity, weight] of strongest) {
      const neighbours = await indexes.graph.neighbours(kb.id, entity, 5);
      const most = neighbours[0]?.weight ?? 1;
      for (const n of neighbours) {
        if (!walk.has(n.entity)) walk.set(n.entity, (NEIGHBOUR_WEIGHT * weight * n.weight) / most);
      }
    }
    const matches = await indexes.graph.chunksMentioning(kb.id, walk, depth, filter);
    // Normalised by what the question asked for: 1 means the chunk names every entity of the question.
    return { recall: 'graph', matches: matches.map((m) => ({ ...m, score: m.score / asked })) };
  }

  async function recall(kb: KnowledgeBaseDoc, recalls: Recall[], query: string, depth: number, filter: IndexFilter) {
    return Promise.all(
      recalls.map((r) => {
        if (r === 'vector') return vectorRecall(kb, query, depth, filter);
        if (r === 'keyword') return indexes.keywords.query(kb.id, query, depth, filter).then((matches): RecallList => ({ recall: 'keyword', matches }));
        return graphRecall(kb, query, depth, filter);
      }),
    );
  }

  async function rerank(settings: KnowledgeBaseSettings, query: string, candidates: Candidate[], passages: Map<string, Passage>, signal?: AbortSignal) {
    const modelId = settings.rerank.model ?? deps.defaultReranker;
    const reranker = deps.rerankers.get(modelId);
    if (!reranker) throw new ApiError(503, 'server_error', 'model_unavailable', `Rerank model ${modelId} is not available.`);
    const pool = candidates.filter((c) => passages.has(c.id));
    const texts = pool.map((c) => rerankText(passages.get(c.id)!));
    const ranked = await reranker.rerank(query, texts, pool.length, signal);
    return ranked.map(({ index, score }) => ({ candidate: pool[index]!, rerank: score }));
  }

  /** Hits for the chosen chunks, skipping any whose document is gone (its index removal may lag). */
  async function present(chosen: { candidate: Candidate; rerank: number | null }[], passages: Map<string, Passage>): Promise<SearchHit[]> {
    const names = new Map<string, string | null>();
    for (const { candidate } of chosen) {
      if (!names.has(candidate.documentId)) {
        const doc = await readModels.get<DocumentDoc>('documents', candidate.documentId);
        names.set(candidate.documentId, doc?.name ?? null);
      }
    }
    const hits: SearchHit[] = [];
    for (const { candidate: c, rerank: rerankScore } of chosen) {
      const passage = passages.get(c.id);
      const source = names.get(c.documentId);
      if (!passage || !source) continue;
      hits.push({
        chunkId: c.id,
        documentId: c.documentId,
        source,
        page: passage.page,
        paragraph: passage.text,
        headingPath: passage.headingPath,
        score: round(rerankScore ?? c.score),
        scores: {
          vector: roundOrNull(c.scores.vector),
          keyword: roundOrNull(c.scores.keyword),
          graph: roundOrNull(c.scores.graph),
          fused: round(c.fused),
          rerank: roundOrNull(rerankScore ?? undefined),
        },
      });
    }
    return hits;
  }

  return {
    knowledgeBase,

    /**
     * Recall (each enabled recall in parallel) → reciprocal-rank fusion → optional rerank of the
     * head of the fused list → threshold → top k. Defaults come from the knowledge base.
     */
    async search(principal: Principal, kbId: string, request: SearchRequest, signal?: AbortSignal): Promise<{ kb: KnowledgeBaseDoc; hits: SearchHit[] }> {
      const kb = await knowledgeBase(principal, kbId);
      return { kb, hits: await this.searchKnowledgeBase(kb, request, signal) };
    },

    async searchKnowledgeBase(kb: KnowledgeBaseDoc, request: SearchRequest, signal?: AbortSignal): Promise<SearchHit[]> {
      const { settings } = kb;
      const topK = request.topK ?? settings.top_k;
      const threshold = request.scoreThreshold ?? settings.score_threshold;
      const useRerank = request.rerank ?? settings.rerank.enabled;
      const recalls = recallsFor(request.mode, settings);
      const filter = await resolveFilter(kb, request.filter);
      if (filter.documentIds?.length === 0) return [];
      const lists = await recall(kb, recalls, request.query, Math.max(RECALL_DEPTH, topK), filter);
      const fused = fuseByReciprocalRank(lists);
      if (fused.length === 0) return [];
      let chosen: { candidate: Candidate; rerank: number | null }[];
      let passages: Map<string, Passage>;
      if (useRerank) {
        const head = fused.slice(0, Math.max(RERANK_DEPTH, topK));
        passages = await indexes.passages.get(kb.id, head.map((c) => c.id));
        chosen = (await rerank(settings, request.query, head, passages, signal)).filter((r) => r.rerank >= threshold);
      } else {
        chosen = fused.filter((c) => c.score >= threshold).map((candidate) => ({ candidate, rerank: null }));
      }
      // A few spare candidates cover hits dropped because their document was deleted meanwhile.
      chosen = chosen.slice(0, topK + 5);
      if (!useRerank) passages = await indexes.passages.get(kb.id, chosen.map((c) => c.candidate.id));
      return (await present(chosen, passages!)).slice(0, topK);
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;

/** An explicit mode wins; hybrid (or no mode) means the recalls the knowledge base enables. */
export function recallsFor(mode: SearchMode | undefined, settings: KnowledgeBaseSettings): Recall[] {
  if (mode && mode !== 'hybrid') return [mode];
  const enabled = (['vector', 'keyword', 'graph'] as const).filter((r) => settings.recall[r]);
  if (enabled.length === 0) throw badRequest('no_recall_enabled', 'The knowledge base enables no recall; enable one in its settings or pass a mode.', 'mode');
  return enabled;
}

/** What a reranker reads: the chunk under its headings, as the indexes saw it. */
const rerankText = (p: Passage) => underHeadings(p.headingPath, p.text);

function matches(actual: MetadataValue | undefined, expected: MetadataValue | MetadataValue[]): boolean {
  return Array.isArray(expected) ? expected.some((e) => e === actual) : expected === actual;
}

const round = (v: number) => Math.round(v * 10_000) / 10_000;
const roundOrNull = (v: number | undefined) => (v === undefined ? null : round(v));
