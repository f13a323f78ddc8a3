/** Why a provider could not be reached, named so that a person knows what to fix. */
export type ProbeFailureCode =
  | 'forbidden_address'
  | 'auth_failed'
  | 'dns_failed'
  | 'connection_refused'
  | 'timeout'
  | 'tls_error'
  | 'wrong_path'
  | 'provider_error'
  | 'invalid_response'
  | 'connection_failed';

export type ProbeFailure = { code: ProbeFailureCode; message: string };

/** A model as the provider's /models lists it; `type` only where its id says it plainly. */
export type DiscoveredModel = { id: string; type?: 'chat' | 'embedding' | 'rerank' };

export type ProbeResult = { ok: true; latencyMs: number; models: DiscoveredModel[] } | { ok: false; latencyMs: number; error: ProbeFailure };

/** Asks an OpenAI-compatible provider for its models (GET {base_url}/models with the key): a connection check and a discovery at once. */
export interface ModelProviderProbe {
  listModels(baseUrl: string, apiKey: string, options?: { timeoutMs?: number }): Promise<ProbeResult>;
}
