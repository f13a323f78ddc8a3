import type { Recall } from '../../domain/retrieval/fusion.ts';
import { ApiError } from '../../ports/api-error.ts';

/** Something a result was made without, said beside it (the search response's `warnings`). */
export type RetrievalWarning = { code: 'vector_recall_unavailable'; message: string };

/**
 * Whether a recall's failure may leave the others to answer: the vector recall, when its
 * embedding provider is down (unreachable, timing out, refusing the key: a 5xx provider error)
 * and the request has keyword or graph recall too. Anything else (a bug, a bad request, vector
 * recall alone) fails the request as before.
 */
export function fallbackWarning(recall: Recall, recalls: readonly Recall[], error: unknown): RetrievalWarning | null {
  if (recall !== 'vector' || !recalls.some((r) => r !== 'vector')) return null;
  if (!(error instanceof ApiError) || error.status < 500 || !error.code.startsWith('provider_')) return null;
  const others = recalls.filter((r) => r !== 'vector').join(' and ');
  return { code: 'vector_recall_unavailable', message: `Vector recall was skipped: ${error.message} These results come from ${others} recall only.` };
}
