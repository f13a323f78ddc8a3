import { ApiError } from '../ports/api-error.ts';
import { DomainError } from '../domain/shared/errors.ts';
import { ConcurrencyError } from '../ports/event-store.ts';
import { BlobTooLargeError } from '../ports/blob-store.ts';

const statusOfKind = { not_found: 404, conflict: 409, invalid: 400, gone: 404 } as const;
const typeOfKind = { not_found: 'not_found_error', conflict: 'conflict_error', invalid: 'invalid_request_error', gone: 'not_found_error' } as const;

/** Every failure becomes one ApiError; anything unexpected becomes a 500 that reveals nothing. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainError) {
    return new ApiError(statusOfKind[error.kind], typeOfKind[error.kind], error.code, error.message, { param: error.param });
  }
  if (error instanceof ConcurrencyError) {
    return new ApiError(409, 'conflict_error', 'concurrent_modification', 'The resource was changed by another request; read it again and retry.');
  }
  if (error instanceof BlobTooLargeError) {
    return new ApiError(413, 'invalid_request_error', 'request_too_large', `The upload exceeds the limit of ${error.maxBytes} bytes.`);
  }
  return new ApiError(500, 'server_error', 'internal_error', 'The server had an error while processing your request.');
}

/** A sentence's end: its mark, and any closing quote or bracket after it. */
const ENDED = /[.!?…。！？]['"’”)\]]*$/;

/**
 * An error's message as the API sends it: one voice, so every message ends as a sentence does
 * (a validation's `field: what is wrong` too, whose reason may be a library's few words).
 */
export function asSentence(message: string): string {
  const trimmed = message.trim();
  return trimmed === '' || ENDED.test(trimmed) ? trimmed : `${trimmed}.`;
}
