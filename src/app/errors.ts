import { notFoundMessage, type ResourceKind } from '../domain/shared/errors.ts';

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'conflict_error'
  | 'rate_limit_error'
  | 'server_error';

export type ApiErrorOptions = {
  /** The request field at fault, when one is. */
  param?: string | null;
  /** Headers the answer carries (retry-after, allow, connection). */
  headers?: Record<string, string>;
};

/** An error meant for the client: its status, type, code and message are part of the API. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly param: string | null;
  readonly headers: Record<string, string>;

  constructor(
    readonly status: number,
    readonly type: ErrorType,
    readonly code: string,
    message: string,
    { param = null, headers = {} }: ApiErrorOptions = {},
  ) {
    super(message);
    this.param = param;
    this.headers = headers;
  }

  /**
   * Whether trying again may help, for consumers that meet it (a provider's answer, say): a 4xx
   * other than 408 and 429 says the request itself is wrong, so the bus parks it at once.
   */
  get retriable(): boolean {
    return this.status >= 500 || this.status === 408 || this.status === 429;
  }
}

export const badRequest = (code: string, message: string, param: string | null = null) =>
  new ApiError(400, 'invalid_request_error', code, message, { param });
export const unauthenticated = (code: string, message: string) => new ApiError(401, 'authentication_error', code, message);
export const forbidden = (code: string, message: string) => new ApiError(403, 'permission_error', code, message);
export const notFoundError = (code: string, message: string, param: string | null = null) => new ApiError(404, 'not_found_error', code, message, { param });
/** A resource that is not there, or is another workspace's: worded the same on every route. */
export const resourceNotFound = (kind: ResourceKind, id: string, param: string | null = null) =>
  notFoundError(`${kind}_not_found`, notFoundMessage(kind, id), param);
export const tooLarge = (message: string) => new ApiError(413, 'invalid_request_error', 'request_too_large', message);
export const unsupportedMediaType = (message: string) =>
  new ApiError(415, 'invalid_request_error', 'unsupported_media_type', message);
