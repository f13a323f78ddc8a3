import { backoffDelay } from '../../lib/retry.ts';
import type { Reranker, RerankResult } from '../../ports/models.ts';
import { causeCode, isUnreachable } from '../openai/connection-cause.ts';
import { messageOf, providerBadResponse, providerFailure, providerStatusError, retryAfterMs } from '../openai/provider-errors.ts';

export type ApiRerankerOptions = {
  /** Up to the version, e.g. https://api.cohere.com/v2 or https://api.jina.ai/v1; `/rerank` is appended. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Per attempt, up to the whole answer being read. */
  timeoutMs: number;
  /** Further attempts after a 429, a 5xx or a failed connection. */
  maxRetries: number;
  fetch?: typeof fetch;
  created?: number;
  /** First backoff step; later ones double, with full jitter. */
  retryBaseMs?: number;
  /** A provider asking for a longer wait than this is not retried: its 429 goes to the caller with the wait. */
  maxRetryAfterMs?: number;
};

const PROVIDER = 'rerank';

class Retriable extends Error {
  constructor(readonly failure: unknown, readonly waitMs?: number) {
    super('retriable rerank failure');
  }
}

/**
 * A Cohere/Jina-style `POST /rerank` (Cohere v1 and v2, Jina, TEI behind LiteLLM, vLLM's
 * `/v1/rerank`): `{model, query, documents, top_n}` answered by `{results: [{index, relevance_score}]}`.
 */
export function createApiReranker({
  baseUrl,
  apiKey,
  model,
  timeoutMs,
  maxRetries,
  fetch: fetchImpl = fetch,
  created = 0,
  retryBaseMs = 250,
  maxRetryAfterMs = 10_000,
}: ApiRerankerOptions): Reranker {
  const url = `${baseUrl.replace(/\/+$/, '')}/rerank`;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;

  async function attempt(body: string, documents: number, signal: AbortSignal | undefined): Promise<RerankResult[]> {
    const attemptSignal = signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await fetchImpl(url, { method: 'POST', headers, body, signal: attemptSignal });
      text = await response.text();
    } catch (error) {
      // A timed-out attempt has already spent the query's latency budget; only failed connections are retried,
      // and not one refused or to a name that does not resolve: a moment later it fails the same way.
      if (signal?.aborted || isTimeout(error) || isUnreachable(causeCode(error))) throw error;
      throw new Retriable(error);
    }
    if (!response.ok) {
      const failure = providerStatusError(response.status, messageOf(parseJson(text)), response.headers, { provider: PROVIDER, model, apiKey });
      if (response.status === 429) {
        const waitMs = retryAfterMs(response.headers);
        if (waitMs === undefined || waitMs <= maxRetryAfterMs) throw new Retriable(failure, waitMs);
      }
      if (response.status >= 500) throw new Retriable(failure);
      throw failure;
    }
    return resultsOf(parseJson(text), documents);
  }

  return {
    model: { id: model, kind: 'rerank', ownedBy: 'rerank-api', created },

    async rerank(query, passages, topN, signal) {
      const limit = Math.min(Math.floor(topN), passages.length);
      if (limit <= 0) return [];
      const body = JSON.stringify({ model, query, documents: passages, top_n: limit });
      for (let retry = 0; ; retry++) {
        try {
          const results = await attempt(body, passages.length, signal);
          return results.slice(0, limit);
        } catch (error) {
          const failure = error instanceof Retriable ? error.failure : error;
          if (!(error instanceof Retriable) || retry >= maxRetries || signal?.aborted) throw providerFailure(failure, { provider: PROVIDER, model, apiKey, signal });
          const backoff = backoffDelay(retry + 1, { attempts: maxRetries, baseMs: retryBaseMs, maxMs: maxRetryAfterMs });
          await wait(error.waitMs ?? backoff, signal).catch((abort: unknown) => {
            throw providerFailure(abort, { provider: PROVIDER, model, apiKey, signal });
          });
        }
      }
    },
  };
}

/** Validated, scores clamped to 0..1, best first; on a tie the first-stage order decides. */
function resultsOf(answer: unknown, documents: number): RerankResult[] {
  const results = (answer as { results?: unknown } | undefined)?.results;
  if (!Array.isArray(results)) throw providerBadResponse(PROVIDER);
  const seen = new Set<number>();
  const out: RerankResult[] = [];
  for (const item of results as unknown[]) {
    const { index, relevance_score: score } = (item ?? {}) as { index?: unknown; relevance_score?: unknown };
    if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= documents || seen.has(index as number)) throw providerBadResponse(PROVIDER);
    if (typeof score !== 'number' || !Number.isFinite(score)) throw providerBadResponse(PROVIDER);
    seen.add(index as number);
    out.push({ index: index as number, score: Math.min(1, Math.max(0, score)) });
  }
  return out.sort((a, b) => b.score - a.score || a.index - b.index);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === 'TimeoutError';
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
