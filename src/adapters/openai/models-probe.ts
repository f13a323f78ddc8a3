import { z } from 'zod';
import type { DiscoveredModel, ModelProviderProbe, ProbeFailure } from '../../ports/model-provider-probe.ts';

const ModelList = z.object({ data: z.array(z.object({ id: z.string().min(1) }).loose()) }).loose();

import { causeCode, isTlsCode, REFUSED_ADDRESS_SAYS, refusedAddress } from './connection-cause.ts';

/** A fetch that threw, in words: the host's name, the port, the clock or the certificate. */
export function describeFetchFailure(error: unknown, url: string, timeoutMs: number): ProbeFailure {
  const { host } = new URL(url);
  if (error instanceof DOMException && error.name === 'TimeoutError') return { code: 'timeout', message: `${host} did not answer within ${timeoutMs} ms.` };
  if (refusedAddress(error)) return { code: 'forbidden_address', message: `${host} is refused: ${REFUSED_ADDRESS_SAYS}.` };
  const code = causeCode(error);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { code: 'dns_failed', message: `The host name of ${host} could not be resolved (${code}).` };
  if (code === 'ECONNREFUSED') return { code: 'connection_refused', message: `${host} refused the connection: nothing listens on that port.` };
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') return { code: 'timeout', message: `${host} did not accept the connection in time (${code}).` };
  if (code && isTlsCode(code)) return { code: 'tls_error', message: `The TLS handshake with ${host} failed (${code}); check https/http and the certificate.` };
  return { code: 'connection_failed', message: `The connection to ${host} failed${code ? ` (${code})` : ''}.` };
}

/** A provider's answer that is not a model list, in words. */
function describeStatus(status: number, url: string): ProbeFailure {
  if (status === 401 || status === 403) return { code: 'auth_failed', message: `The provider refused the API key (HTTP ${status}).` };
  if (status === 404) return { code: 'wrong_path', message: `${url} was not found (HTTP 404): base_url usually ends in /v1.` };
  return { code: 'provider_error', message: `The provider answered HTTP ${status} to ${url}.` };
}

/** Only what the id says plainly: OpenAI's /models carries no type. */
const typeFromId = (id: string): DiscoveredModel['type'] => (/rerank/i.test(id) ? 'rerank' : /embed/i.test(id) ? 'embedding' : undefined);

/** GET {base_url}/models with the key, by fetch itself (not the openai client) so that each failure keeps its cause. */
/** `fetch`: how the provider is reached; workspace providers' goes through the address policy (src/lib/guarded-http/fetch.ts). */
export function createModelsProbe({ defaultTimeoutMs = 10_000, fetch = globalThis.fetch }: { defaultTimeoutMs?: number; fetch?: typeof globalThis.fetch } = {}): ModelProviderProbe {
  return {
    async listModels(baseUrl, apiKey, { timeoutMs = defaultTimeoutMs } = {}) {
      const url = `${baseUrl.replace(/\/+$/, '')}/models`;
      // What messages show of it: no query string, which some gateways use for keys.
      const shown = `${new URL(url).origin}${new URL(url).pathname}`;
      const started = performance.now();
      const latency = () => Math.round(performance.now() - started);
      try {
        const response = await fetch(url, { headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
        const text = await response.text();
        if (!response.ok) return { ok: false, latencyMs: latency(), error: describeStatus(response.status, shown) };
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        const list = ModelList.safeParse(json);
        if (!list.success) return { ok: false, latencyMs: latency(), error: { code: 'invalid_response', message: `${shown} did not answer with a model list ({"data":[{"id":…}]}).` } };
        const models = list.data.data.map(({ id }) => {
          const type = typeFromId(id);
          return type ? { id, type } : { id };
        });
        return { ok: true, latencyMs: latency(), models };
      } catch (error) {
        return { ok: false, latencyMs: latency(), error: describeFetchFailure(error, shown, timeoutMs) };
      }
    },
  };
}
