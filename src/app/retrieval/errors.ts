import { ApiError } from '../../ports/api-error.ts';

/** A model the knowledge base names that this deployment does not serve. */
export const modelUnavailable = (kind: 'Embedding' | 'Rerank', id: string) =>
  new ApiError(503, 'server_error', 'model_unavailable', `${kind} model ${id} is not available.`);
