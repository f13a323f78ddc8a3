import type OpenAI from 'openai';
import type { Embedder } from '../../ports/models.ts';
import { providerBadResponse, toProviderApiError } from './provider-errors.ts';

export type OpenAiEmbedderOptions = {
  client: OpenAI;
  model: string;
  dimensions: number;
  /** Inputs per request; providers cap it (OpenAI: 2048), smaller batches fail smaller. */
  batchSize?: number;
  created?: number;
};

/**
 * Any OpenAI-compatible `/v1/embeddings` (OpenAI, Azure, vLLM, Ollama, LiteLLM …). Texts go in
 * batches; the client retries 429 and 5xx answers with exponential backoff, honouring retry-after,
 * and what still fails becomes our API error (a query embedded at search time answers with it).
 */
export function createOpenAiEmbedder({ client, model, dimensions, batchSize = 128, created = 0 }: OpenAiEmbedderOptions): Embedder {
  return {
    model: { id: model, kind: 'embedding', ownedBy: 'openai-compatible', created },
    dimensions,
    // Whether this model can is the provider's to say: one that cannot answers `dimensions` with an error, which reaches the client.
    shortens: true,
    async embed(texts, options = {}) {
      const size = options.dimensions ?? dimensions;
      const out: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        const input = texts.slice(start, start + batchSize);
        const response = await client.embeddings.create({ model, input, encoding_format: 'float', ...(options.dimensions === undefined ? {} : { dimensions: options.dimensions }) }).catch((error: unknown) => {
          throw toProviderApiError(error, { provider: 'embedding', model, apiKey: client.apiKey });
        });
        // Providers may answer out of order; `index` says which input each vector belongs to.
        const ordered = [...response.data].sort((a, b) => a.index - b.index);
        // A wrong answer is the provider's (or its listed dimensions'), never ours: a 502 that names it, not a 500.
        if (ordered.length !== input.length) throw providerBadResponse('embedding', `${ordered.length} vectors for ${input.length} inputs`);
        for (const item of ordered) {
          if (item.embedding.length !== size) {
            throw providerBadResponse('embedding', `'${model}' made vectors of ${item.embedding.length} dimensions where ${size} were expected (the dimensions its model entry lists, or the request's)`);
          }
          out.push(Float32Array.from(item.embedding));
        }
      }
      return out;
    },
  };
}
