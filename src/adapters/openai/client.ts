import OpenAI from 'openai';
import { causeCode, isUnreachable } from './connection-cause.ts';
import { messageOf } from './provider-errors.ts';

/**
 * `fetch`: how the provider is reached (a workspace provider's goes through the address policy:
 * src/lib/guarded-http/fetch.ts); `nameHost`: whether errors may name the provider's host to the
 * API's caller (a workspace's own provider: its base_url is theirs).
 */
export type OpenAiClientOptions = { apiKey: string; baseURL?: string; maxRetries: number; timeoutMs: number; fetch?: typeof fetch; nameHost?: boolean };

/** The headers a failed connection's stand-in answer carries (provider-errors.ts reads them). */
export const UNREACHABLE_HEADER = 'x-kbqa-unreachable';
export const HOST_HEADER = 'x-kbqa-host';

/**
 * One client per provider, shared by its chat and embedding models. The client retries 429, 408,
 * 409, 5xx and connection failures or timeouts with exponential backoff, honouring retry-after;
 * `timeoutMs` bounds each attempt up to the response headers, not the whole call.
 */
export function createOpenAiClient({ apiKey, baseURL, maxRetries, timeoutMs, fetch: fetchImpl = fetch, nameHost = false }: OpenAiClientOptions): OpenAI {
  return new OpenAI({ apiKey, baseURL, maxRetries, timeout: timeoutMs, fetch: (input: string | URL | Request, init?: RequestInit) => fetchOnce(fetchImpl, input, init, nameHost) });
}

/**
 * The SDK retries every failed connection (maxRetries, with backoff: 13–15 s before a refused
 * connection's 502). A refused connection or a name that does not resolve fails the same way a
 * moment later, so it becomes a stand-in 502 the SDK is told not to retry (`x-should-retry:
 * false`), carrying the socket's code and the host for the error the caller gets.
 */
async function fetchOnce(fetchImpl: typeof fetch, input: string | URL | Request, init: RequestInit | undefined, nameHost: boolean): Promise<Response> {
  try {
    return await fetchWithErrorEnvelope(fetchImpl, input, init);
  } catch (error) {
    const code = causeCode(error);
    if (init?.signal?.aborted || !isUnreachable(code)) throw error;
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-should-retry': 'false', [UNREACHABLE_HEADER]: code! };
    if (nameHost) headers[HOST_HEADER] = url.host;
    return new Response(JSON.stringify({ error: { message: code } }), { status: 502, headers });
  }
}

/**
 * The SDK reads an error's message only from `{error: …}`; older vLLM answers `{object: 'error',
 * message}` and FastAPI-based servers `{detail}`, so their error bodies are rewrapped, or a
 * rejected prompt would reach our caller without the provider's reason.
 */
async function fetchWithErrorEnvelope(fetchImpl: typeof fetch, input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const response = await fetchImpl(input, init);
  if (response.ok || !response.headers.get('content-type')?.includes('json')) return response;
  const text = await response.text();
  const body = parse(text);
  const message = body && typeof body === 'object' && !('error' in body) ? messageOf(body) : undefined;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  return new Response(message === undefined ? text : JSON.stringify({ error: { message } }), { status: response.status, statusText: response.statusText, headers });
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
