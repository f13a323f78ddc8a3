/** A guarded request that could not be made or completed; `retriable` marks network failures worth another try. */
export class GuardedHttpError extends Error {
  constructor(
    readonly code: 'http_forbidden_address' | 'http_bad_url' | 'http_network' | 'http_timeout' | 'http_too_large' | 'http_redirects' | 'http_destination_refused',
    message: string,
    /** The system's error beneath it (a DNS failure's ENOTFOUND), for callers that tell causes apart. */
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
  }

  get retriable(): boolean {
    return this.code === 'http_network';
  }
}
