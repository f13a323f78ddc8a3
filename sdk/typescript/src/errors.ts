import type { Document } from './types.ts';

/** The API's error body: `{"error": {message, type, param, code}}` (API.md, "Errors"). */
export type ErrorBody = { message: string; type: string; param: string | null; code: string | null };

/** Everything this SDK throws derives from KbqaError. */
export class KbqaError extends Error {
  override name = 'KbqaError';
}

/** The server answered with an error status; `error` is its error body, verbatim. */
export class APIError extends KbqaError {
  override name = 'APIError';
  readonly status: number;
  readonly error: ErrorBody;
  readonly headers: Headers;
  /** The `x-request-id` of the failed request: quote it when reporting a problem. */
  readonly requestId: string | null;

  constructor(status: number, error: ErrorBody, headers: Headers = new Headers()) {
    super(`${status} ${error.code ?? error.type}: ${error.message}`);
    this.status = status;
    this.error = error;
    this.headers = headers;
    this.requestId = headers.get('x-request-id');
  }

  get code(): string | null {
    return this.error.code;
  }

  get type(): string {
    return this.error.type;
  }

  get param(): string | null {
    return this.error.param;
  }
}

export class BadRequestError extends APIError {
  override name = 'BadRequestError';
}
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError';
}
export class NotFoundError extends APIError {
  override name = 'NotFoundError';
}
export class ConflictError extends APIError {
  override name = 'ConflictError';
}
export class PayloadTooLargeError extends APIError {
  override name = 'PayloadTooLargeError';
}
export class UnsupportedMediaTypeError extends APIError {
  override name = 'UnsupportedMediaTypeError';
}
export class UnprocessableEntityError extends APIError {
  override name = 'UnprocessableEntityError';
}
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
  /** Seconds the server asked to wait (`retry-after`), when it said. */
  get retryAfter(): number | null {
    const value = Number(this.headers.get('retry-after'));
    return this.headers.has('retry-after') && Number.isFinite(value) ? value : null;
  }
}
export class InternalServerError extends APIError {
  override name = 'InternalServerError';
}

const byStatus: Record<number, typeof APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  415: UnsupportedMediaTypeError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/** The typed error for a status and body (a body that is not the API's shape is wrapped in one). */
export function apiError(status: number, body: unknown, headers?: Headers): APIError {
  const error = errorBodyOf(body, status);
  const Class = byStatus[status] ?? (status >= 500 ? InternalServerError : APIError);
  return new Class(status, error, headers);
}

function errorBodyOf(body: unknown, status: number): ErrorBody {
  const inner = (body as { error?: Partial<ErrorBody> } | null)?.error;
  if (inner && typeof inner === 'object' && typeof inner.message === 'string') {
    return { message: inner.message, type: inner.type ?? 'api_error', param: inner.param ?? null, code: inner.code ?? null };
  }
  const text = typeof body === 'string' && body !== '' ? body.slice(0, 500) : `HTTP ${status}`;
  return { message: text, type: status >= 500 ? 'server_error' : 'api_error', param: null, code: null };
}

/** No answer from the server (refused, reset, DNS): the request may or may not have been processed. */
export class APIConnectionError extends KbqaError {
  override name = 'APIConnectionError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The request took longer than the client's timeout. */
export class APITimeoutError extends APIConnectionError {
  override name = 'APITimeoutError';
}

/** The caller's AbortSignal fired. */
export class APIUserAbortError extends KbqaError {
  override name = 'APIUserAbortError';
}

/** A document the SDK waited for failed to parse or index; `documents` has every waited-for document as it ended. */
export class DocumentFailedError extends KbqaError {
  override name = 'DocumentFailedError';
  readonly documents: Document[];

  constructor(documents: DocumentFailedError['documents']) {
    const failed = documents.filter((d) => d.status !== 'ready');
    super(`${failed.length} document(s) failed: ${failed.map((d) => `${d.name} (${d.error?.code ?? d.status})`).join(', ')}`);
    this.documents = documents;
  }

  get failed() {
    return this.documents.filter((d) => d.status !== 'ready');
  }
}
