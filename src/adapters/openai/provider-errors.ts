import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { secretScrubber } from '../../lib/secret-scrub.ts';
import { ApiError } from '../../ports/api-error.ts';
import { connectionCause } from './connection-cause.ts';

/**
 * What the messages name: `provider` is the role ('chat', 'embedding', 'rerank'), not a vendor.
 * `apiKey`: the key the call was made with, scrubbed (every encoding src/lib/secret-scrub.ts
 * knows) from whatever of the provider's answer a message or the logged cause carries: a provider
 * that echoes the request's key in its error would otherwise hand it to whoever made the call.
 */
export type ProviderCall = { provider: string; model?: string; apiKey?: string | null | undefined };

type HeaderSource = { get(name: string): string | null } | undefined;

const MAX_PROVIDER_MESSAGE = 500;

/**
 * How long a provider asked us to wait, from `retry-after-ms` (a de-facto OpenAI header) or
 * `retry-after` (seconds or an HTTP date); undefined when it did not say.
 */
export function retryAfterMs(headers: HeaderSource): number | undefined {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers?.get('retry-after');
  if (!raw) return undefined;
  const seconds = Number.parseFloat(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * How providers say a prompt does not fit the model's context window: OpenAI's and llama.cpp's
 * Python server's `code`, and the messages of vLLM ("maximum context length"), llama.cpp's C++
 * server ("exceeds the available context size") and others.
 */
const CONTEXT_OVERFLOW = /maximum context length|context window|context size|context length|too many tokens/i;

/** The API error for a provider's HTTP error answer; `providerMessage` is shown only where it helps the caller; `providerCode`: its error's `code`, when it gave one. */
export function providerStatusError(
  status: number,
  providerMessage: string | undefined,
  headers: HeaderSource,
  { provider, model, apiKey }: ProviderCall,
  providerCode?: unknown,
): ApiError {
  if (status === 429) {
    const waitMs = retryAfterMs(headers);
    const retryAfter: Record<string, string> = waitMs === undefined ? {} : { 'retry-after': String(Math.ceil(waitMs / 1000)) };
    return new ApiError(429, 'rate_limit_error', 'provider_rate_limited', `The ${provider} provider is rate limiting requests; retry later.`, { headers: retryAfter });
  }
  // 413 belongs here too: a prompt too large for the model is a property of the request.
  if (status === 400 || status === 413 || status === 422) {
    // Scrubbed before it is cut, so a cut cannot split an encoded key into a form the scrubber misses.
    const message = providerMessage && secretScrubber(apiKey ? [apiKey] : [])(providerMessage).trim();
    const detail = message ? `: ${message.slice(0, MAX_PROVIDER_MESSAGE)}` : '.';
    // The caller's prompt is too long for the model: theirs to shorten, as OpenAI says it (400 context_length_exceeded, which clients such as LangChain act on).
    if (provider === 'chat' && (providerCode === 'context_length_exceeded' || (message && CONTEXT_OVERFLOW.test(message)))) {
      return new ApiError(400, 'invalid_request_error', 'context_length_exceeded', `The prompt does not fit the chat model's context window${detail}`, { param: 'messages' });
    }
    return new ApiError(422, 'invalid_request_error', 'provider_rejected_request', `The ${provider} provider rejected the request${detail}`);
  }
  // The provider's own message is dropped: OpenAI's echoes part of the key.
  if (status === 401 || status === 403) {
    return new ApiError(502, 'server_error', 'provider_auth_failed', `The ${provider} provider refused the API key (HTTP ${status}).`);
  }
  if (status === 404) {
    const which = model ? ` '${model}'` : '';
    return new ApiError(404, 'not_found_error', 'model_not_found', `The ${provider} provider does not serve the model${which}.`);
  }
  if (status === 408) return providerTimeout(provider);
  return providerUnavailable(provider);
}

export const providerTimeout = (provider: string) =>
  new ApiError(504, 'server_error', 'provider_timeout', `The ${provider} provider did not answer in time.`);

/**
 * `cause`: why it could not be reached, when that is known (connection-cause.ts), so the message says what to fix;
 * `host`: where, when the caller may know it (a workspace's own provider; client.ts answers a refused connection at once).
 */
export const providerUnavailable = (provider: string, cause?: string, host?: string | null) =>
  new ApiError(
    502,
    'server_error',
    'provider_unavailable',
    cause ? `The ${provider} provider${host ? ` at ${host}` : ''} could not be reached: ${cause}.` : `The ${provider} provider is unavailable; retry later.`,
  );

/** `detail`: what was wrong with it, when that tells the operator what to fix (an embedding model's dimensions set wrong). */
export const providerBadResponse = (provider: string, detail?: string) =>
  new ApiError(502, 'server_error', 'provider_bad_response', `The ${provider} provider sent an answer this server could not ${detail ? `use: ${detail}` : 'read'}.`);

/**
 * Any failure of a provider call as our API error: OpenAI SDK errors, fetch's TimeoutError and
 * network errors, unreadable answers. An ApiError passes through, so adapters can map once at the edge.
 */
export function toProviderApiError(error: unknown, call: ProviderCall): ApiError {
  if (error instanceof ApiError) return error;
  const mapped = classify(error, call);
  // Kept for the server log; the auth failure's cause is dropped with its message (see above).
  if (mapped.code !== 'provider_auth_failed') mapped.cause = call.apiKey ? scrubbedCause(error, call.apiKey) : error;
  return mapped;
}

/**
 * The cause as the log may show it: its name, code, status and message with the key scrubbed,
 * and so on down its own causes; the provider's body and headers the SDK keeps on it are left out.
 */
function scrubbedCause(error: unknown, apiKey: string, depth = 0): unknown {
  const scrub = secretScrubber([apiKey]);
  if (!(error instanceof Error)) return scrub(String(error));
  if (depth > 4) return undefined;
  const copy = new Error(scrub(error.message));
  copy.name = error.name;
  copy.stack = error.stack && scrub(error.stack);
  const { code, status } = error as { code?: unknown; status?: unknown };
  const cause = (error as { cause?: unknown }).cause;
  return Object.assign(copy, code !== undefined && { code }, status !== undefined && { status }, cause !== undefined && { cause: scrubbedCause(cause, apiKey, depth + 1) });
}

function classify(error: unknown, call: ProviderCall): ApiError {
  if (error instanceof APIConnectionTimeoutError) return providerTimeout(call.provider);
  const unreachable = error instanceof APIError ? error.headers?.get('x-kbqa-unreachable') : null;
  if (unreachable) return providerUnavailable(call.provider, connectionCause({ code: unreachable }).says, (error as APIError).headers?.get('x-kbqa-host'));
  if (error instanceof APIConnectionError) return providerUnavailable(call.provider, connectionCause(error).says);
  if (error instanceof APIError && typeof error.status === 'number') {
    return providerStatusError(error.status, messageOf(error.error), error.headers, call, error.code);
  }
  if (error instanceof Error && error.name === 'TimeoutError') return providerTimeout(call.provider);
  if (error instanceof SyntaxError) return providerBadResponse(call.provider);
  // fetch's own failure (the rerank adapter calls fetch directly): a TypeError whose cause is the socket's error.
  if (error instanceof TypeError && error.cause) return providerUnavailable(call.provider, connectionCause(error).says);
  return providerUnavailable(call.provider);
}

/**
 * What an adapter throws when a provider call fails: the caller's own abort stays an AbortError,
 * so a disconnected client is not reported (or logged) as a provider failure.
 */
export function providerFailure(error: unknown, call: ProviderCall & { signal?: AbortSignal | undefined }): unknown {
  if (call.signal?.aborted) return abortError(call.signal);
  return toProviderApiError(error, call);
}

/** The signal's reason when it is an AbortError already; callers may abort with any reason (`new Error('client disconnected')`). */
function abortError(signal: AbortSignal): unknown {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  // Node's typings lack DOMException's options argument, hence the assignment.
  return Object.assign(new DOMException('The operation was aborted.', 'AbortError'), { cause: reason });
}

/** The human part of an OpenAI-, Cohere- or Jina-style error body (Jina's validation errors are FastAPI's `detail` list). */
export function messageOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body;
  if (Array.isArray(body)) return messageOf(body[0]);
  if (!body || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['message', 'detail', 'msg', 'error']) {
    const value = record[key];
    if (typeof value === 'string') return value;
    if (value && typeof value === 'object') return messageOf(value);
  }
  return undefined;
}
