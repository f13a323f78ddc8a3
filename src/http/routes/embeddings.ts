import type { EmbeddingsService } from '../../app/services/embeddings.ts';
import { ApiError } from '../../ports/api-error.ts';
import { EmbeddingsBody, EmbeddingsResponse } from '../../../schemas/http/embeddings.ts';
import { route } from '../route.ts';

export function embeddingsRoutes(embeddings: EmbeddingsService) {
  return [
    route({
      method: 'post',
      path: '/v1/embeddings',
      summary: 'OpenAI-compatible embeddings, with any embedding model of GET /v1/models (the offline hashing model or a provider’s)',
      tag: 'models',
      scope: 'read',
      load: 'query',
      body: EmbeddingsBody,
      response: EmbeddingsResponse,
      handle: async ({ body, principal }) => {
        const { model, vectors, promptTokens } = await embeddings.embed(principal.workspaceId, body.model, textsOf(body.input), body.dimensions);
        const encode = body.encoding_format === 'base64' ? base64Of : (v: Float32Array) => Array.from(v);
        return {
          body: {
            object: 'list',
            data: vectors.map((v, index) => ({ object: 'embedding', index, embedding: encode(v) })),
            model,
            usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
          },
        };
      },
    }),
  ];
}

function textsOf(input: EmbeddingsBody['input']): string[] {
  const list = Array.isArray(input) ? input : [input];
  if (list.some((item) => typeof item !== 'string')) {
    const message = 'input: token arrays would need each model’s own tokenizer; send the text instead.';
    throw new ApiError(400, 'invalid_request_error', 'unsupported_parameter', message, { param: 'input' });
  }
  return list as string[];
}

/** OpenAI's base64 encoding: the vector's float32 values, little-endian, whatever the machine's byte order. */
function base64Of(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((v, i) => bytes.writeFloatLE(v, i * 4));
  return bytes.toString('base64');
}
