import OpenAI from 'openai';
import { messageOf } from './provider-errors.ts';

/** `fetch`: how the provider is reached (a workspace provider's goes through the address policy: src/lib/guarded-http/fetch.ts). */
export type OpenAiClientOptions = { apiKey: string; baseURL?: string; maxRetries: number; timeoutMs: number; fetch?: typeof fetch };

/**
 * One client per provider, shared by its chat and embedding models. The client retries 429, 408,
 * 409, 5xx and connection failures or timeouts with exponential backoff, honouring retry-after;
 * `timeoutMs` bounds each attempt up to the response headers, not the whole call.
 */
export function createOpenAiClient({ apiKey, baseURL, maxRetries, timeoutMs, fetch: fetchImpl = fetch }: OpenAiClientOptions): OpenAI {
  return new OpenAI({ apiKey, baseURL, maxRetries, timeout: timeoutMs, fetch: (input: string | URL | Request, init?: RequestInit) => fetchWithErrorEnvelope(fetchImpl, input, init) });
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
