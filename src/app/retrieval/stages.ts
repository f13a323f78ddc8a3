import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import { type Candidate, fuseByReciprocalRank, type Recall, type RecallList } from '../../domain/retrieval/fusion.ts';
import type { PassageCache } from './passage-cache.ts';

/** A candidate chunk as the stages rank it; `rerank` is the reranker's score once it has read it. */
export type Ranked = { candidate: Candidate; rerank: number | null };

/** The score a threshold compares and a client sees: the reranker's, else the strongest recall's. */
export const scoreOf = (r: Ranked) => r.rerank ?? r.candidate.score;

/** A request's settings once the knowledge base's defaults fill what it left out. */
export type RetrievalOptions = { recalls: Recall[]; topK: number; threshold: number; rerank: boolean };

/** What a stage sees: the question, the recalls' lists, and the ranking so far (empty before fusion). */
export type RetrievalState = {
  readonly query: string;
  readonly kb: KnowledgeBaseDoc;
  readonly options: RetrievalOptions;
  readonly lists: readonly RecallList[];
  readonly ranked: readonly Ranked[];
};

export type StageContext = { passages: PassageCache; signal?: AbortSignal };

/** One step after recall: takes the ranking, returns the new one (reordered, rescored or cut). */
export type Stage = {
  readonly name: string;
  run(state: RetrievalState, ctx: StageContext): readonly Ranked[] | Promise<readonly Ranked[]>;
};

/** Reciprocal-rank fusion of every recall's list (domain/retrieval/fusion.ts). */
export const fusionStage: Stage = {
  name: 'fusion',
  run: ({ lists }) => fuseByReciprocalRank(lists).map((candidate) => ({ candidate, rerank: null })),
};

/** Drops what scores under the threshold (the reranker's score when it ran). */
export const thresholdStage: Stage = {
  name: 'threshold',
  run: ({ ranked, options }) => ranked.filter((r) => scoreOf(r) >= options.threshold),
};
