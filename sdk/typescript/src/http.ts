import { APIError, apiError, APIConnectionError, APITimeoutError, APIUserAbortError } from './errors.ts';
import { backoffMs, isIdempotent, retryableStatus, retryAfterMs, sleep, type RetryPolicy } from './retry.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export type RequestSpec = {
  method: Method;
  /** Under the base URL, e.g. `/models`. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  /** A multipart body; its content type goes in `headers`. */
  form?: Blob;
  headers?: Record<string, string>;
  /** Force the retry class of a call (search is a POST that changes nothing, so it is idempotent). */
  idempotent?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
};

/** What a retry reports to `onRetry`: the attempt that failed (0-based), why, and the wait before the next. */
export type RetryInfo = { attempt: number; delayMs: number; method: string; path: string; status: number | null; error: Error };

export type TransportOptions = {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  retry: RetryPolicy;
  userAgent: string;
  fetch: typeof fetch;
  onRetry?: (info: RetryInfo) => void;
};

/**
 * A response whose status was a success. `endTimeout` stops its timer (once the body is read, or
 * for a stream once its headers are in); `release` also unlinks the caller's AbortSignal.
 */
type Received = { response: Response; endTimeout: () => void; release: () => void };

export function createTransport(options: TransportOptions) {
  const { retry } = options;

  function url(spec: RequestSpec): string {
    const query = Object.entries(spec.query ?? {}).filter(([, v]) => v !== undefined);
    const search = query.length === 0 ? '' : `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)])).toString()}`;
    return `${options.baseUrl}${spec.path}${search}`;
  }

  function init(spec: RequestSpec, signal: AbortSignal): RequestInit {
    const headers: Record<string, string> = {
      authorization: `Bearer ${options.apiKey}`,
      accept: 'application/json, text/event-stream',
      'user-agent': options.userAgent,
      ...(spec.json !== undefined && { 'content-type': 'application/json' }),
      ...spec.headers,
    };
    const body = spec.json !== undefined ? JSON.stringify(spec.json) : spec.form;
    return { method: spec.method, headers, body, signal };
  }

  /** One attempt: the response, or the error to report (an API error only once its body is read). */
  async function attempt(spec: RequestSpec): Promise<Received> {
    const controller = new AbortController();
    const timeoutMs = spec.timeoutMs ?? options.timeoutMs;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onUserAbort = () => controller.abort();
    spec.signal?.addEventListener('abort', onUserAbort, { once: true });
    const endTimeout = () => clearTimeout(timer);
    const release = () => {
      endTimeout();
      spec.signal?.removeEventListener('abort', onUserAbort);
    };
    try {
      if (spec.signal?.aborted) throw spec.signal.reason;
      const response = await options.fetch(url(spec), init(spec, controller.signal));
      if (response.ok) return { response, endTimeout, release };
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: kept as text in the error's message
      }
      throw apiError(response.status, body, response.headers);
    } catch (error) {
      release();
      if (spec.signal?.aborted) throw new APIUserAbortError('The request was aborted.', { cause: error });
      if (timedOut) throw new APITimeoutError(`No answer from ${spec.method} ${spec.path} within ${timeoutMs} ms.`, { cause: error });
      if (error instanceof APIError) throw error;
      throw new APIConnectionError(`Could not reach ${options.baseUrl}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  /** Sends a request, retrying what may be retried; resolves with a successful response. */
  async function send(spec: RequestSpec): Promise<Received> {
    const idempotent = spec.idempotent ?? isIdempotent(spec.method, spec.headers ?? {});
    for (let n = 0; ; n++) {
      try {
        return await attempt(spec);
      } catch (error) {
        const delay = n < retry.maxRetries ? retryDelay(error as Error, idempotent, n) : null;
        if (delay === null) throw error;
        const status = error instanceof APIError ? error.status : null;
        options.onRetry?.({ attempt: n, delayMs: delay, method: spec.method, path: spec.path, status, error: error as Error });
        try {
          await sleep(delay, spec.signal);
        } catch (reason) {
          throw new APIUserAbortError('The request was aborted.', { cause: reason });
        }
      }
    }
  }

  function retryDelay(error: Error, idempotent: boolean, n: number): number | null {
    if (error instanceof APIError) {
      if (!retryableStatus(error.status, error.code, idempotent)) return null;
      const asked = retryAfterMs(error.headers);
      if (asked === null) return backoffMs(n, retry);
      return asked <= retry.maxRetryAfterMs ? asked : null;
    }
    if (error instanceof APIConnectionError && idempotent) return backoffMs(n, retry);
    return null;
  }

  return {
    send,
    /** The JSON body of a successful response, with its headers. */
    async json<T>(spec: RequestSpec): Promise<{ body: T; headers: Headers; status: number }> {
      const { response, release } = await send(spec);
      try {
        return { body: (await response.json()) as T, headers: response.headers, status: response.status };
      } finally {
        release();
      }
    },
    /** A streamed response: the timeout covers waiting for its headers; the stream then runs as long as it lasts. */
    async stream(spec: RequestSpec): Promise<ReadableStream<Uint8Array>> {
      // The caller's signal stays linked: aborting it ends the stream.
      const { response, endTimeout } = await send(spec);
      endTimeout();
      if (!response.body) throw new APIConnectionError(`${spec.method} ${spec.path} answered without a body.`);
      return response.body;
    },
  };
}

export type Transport = ReturnType<typeof createTransport>;
