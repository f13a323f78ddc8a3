/**
 * The error a client sees, thrown wherever the fault is found: the app's rules, the HTTP edge, and
 * the adapters that map a provider's failure to what the client is told (adapters/openai/provider-errors.ts).
 */

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
  /** What the client needs to act on the error beyond its code (version_purged: the document, versions and time). */
  detail?: Record<string, unknown>;
};

/** An error meant for the client: its status, type, code and message are part of the API. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly param: string | null;
  readonly headers: Record<string, string>;
  readonly detail: Record<string, unknown> | undefined;

  constructor(
    readonly status: number,
    readonly type: ErrorType,
    readonly code: string,
    message: string,
    { param = null, headers = {}, detail }: ApiErrorOptions = {},
  ) {
    super(message);
    this.param = param;
    this.headers = headers;
    this.detail = detail;
  }

  /**
   * Whether trying again may help, for consumers that meet it (a provider's answer, say): a 4xx
   * other than 408 and 429 says the request itself is wrong, so the bus parks it at once.
   */
  get retriable(): boolean {
    return this.status >= 500 || this.status === 408 || this.status === 429;
  }
}
