// Asking a knowledge base questions through POST /v1/chat/completions and summarising the verdicts:
// what the SQuAD and XQuAD suites share.
import pMap from 'p-map';
import type { ChatReply } from './answer-scoring.ts';
import { json, type Api } from './kbqa-api.ts';
import type { Split } from './squad-data.ts';
import { percentile, round } from './util.ts';

/** One question's outcome, as `--out` writes it (one JSON line each). */
export type ResultRow = {
  suite: string;
  split: Split;
  /** answerable, offtopic, unanswerable, or xquad-<language> */
  category: string;
  id: string;
  question: string;
  gold: string[];
  answer: string;
  /** How many passages the answer cites. */
  citations: number;
  /** Whether a passage the model was given (the chat's `context`) holds a gold answer: tells a retrieval miss from a wrong sentence picked. */
  gold_in_context?: boolean;
  answerable?: boolean;
  coverage?: unknown;
  correct: boolean;
  latency_ms: number;
};

/** A question to ask, and how to judge the reply to it. */
export type Ask = Omit<ResultRow, 'answer' | 'citations' | 'gold_in_context' | 'answerable' | 'coverage' | 'correct' | 'latency_ms' | 'suite'> & {
  judge: (reply: ChatReply) => boolean;
  /** For answerable questions: whether these passages hold a gold answer. */
  inContext?: (passages: readonly string[]) => boolean;
};

export const CHAT_MODEL = 'kbqa-extractive';

/** One non-streaming chat turn against the knowledge base; latency measured here, client-side. */
export async function askChat(api: Api, kb: string, question: string): Promise<{ reply: ChatReply; passages: string[]; ms: number }> {
  const started = performance.now();
  const res = await json(api, 'POST', '/v1/chat/completions', { model: CHAT_MODEL, knowledge_base_id: kb, messages: [{ role: 'user', content: question }] });
  const ms = performance.now() - started;
  const message = res.choices?.[0]?.message ?? {};
  // The answerability fields may sit on the completion or on its message: take either.
  const answerable = res.answerable ?? message.answerable;
  const coverage = res.coverage ?? message.coverage;
  const cited: unknown[] = Array.isArray(res.citations) ? res.citations : [];
  // The ceiling is what the model was given, cited or not: `context` (issue 43 item 11; a server before it listed all of them as `citations`).
  const given: { paragraph?: string }[] = Array.isArray(res.context) ? res.context : Array.isArray(res.citations) ? res.citations : [];
  const reply: ChatReply = { content: String(message.content ?? ''), citations: cited.length };
  if (typeof answerable === 'boolean') reply.answerable = answerable;
  if (coverage !== undefined) reply.coverage = coverage;
  return { reply, passages: given.map((c) => c.paragraph ?? ''), ms };
}

/** Asks every question with `concurrency` clients; rows come back in the questions' order. */
export function askAll(api: Api, kb: string, suite: string, asks: readonly Ask[], concurrency = 4): Promise<ResultRow[]> {
  return pMap(
    asks,
    async ({ judge, inContext, ...ask }): Promise<ResultRow> => {
      const { reply, passages, ms } = await askChat(api, kb, ask.question);
      const context = inContext ? { gold_in_context: inContext(passages) } : {};
      return { suite, ...ask, answer: reply.content, citations: reply.citations, ...context, ...extras(reply), correct: judge(reply), latency_ms: round(ms, 1) };
    },
    { concurrency },
  );
}

const extras = (reply: ChatReply) => ({
  ...(reply.answerable === undefined ? {} : { answerable: reply.answerable }),
  ...(reply.coverage === undefined ? {} : { coverage: reply.coverage }),
});

export type Share = { questions: number; correct: number; share: number; gold_in_context?: number };
export type SplitShares = { fit: Share; held_out: Share; all: Share };

function share(rows: readonly ResultRow[]): Share {
  const ratio = (n: number) => (rows.length === 0 ? 0 : round(n / rows.length, 4));
  const correct = rows.filter((r) => r.correct).length;
  const result: Share = { questions: rows.length, correct, share: ratio(correct) };
  // The ceiling the answerer works under: questions whose passages given hold a gold answer.
  if (rows.some((r) => r.gold_in_context !== undefined)) result.gold_in_context = ratio(rows.filter((r) => r.gold_in_context).length);
  return result;
}

/** Share correct on the fit half, the held-out half and both. */
export function splitShares(rows: readonly ResultRow[]): SplitShares {
  return { fit: share(rows.filter((r) => r.split === 'fit')), held_out: share(rows.filter((r) => r.split === 'held_out')), all: share(rows) };
}

/** The shares with a goal and whether each half meets it. */
export function withGoal(shares: SplitShares, goal: number) {
  return { ...shares, goal, pass: { fit: shares.fit.share >= goal, held_out: shares.held_out.share >= goal, all: shares.all.share >= goal } };
}

/** Client-side chat latency, p50 and p95. */
export function latency(rows: readonly ResultRow[]) {
  const sorted = rows.map((r) => r.latency_ms).sort((a, b) => a - b);
  return { p50_ms: round(percentile(sorted, 50), 1), p95_ms: round(percentile(sorted, 95), 1) };
}
