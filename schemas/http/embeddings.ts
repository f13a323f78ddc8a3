import { z } from 'zod';

const text = z.string().min(1, 'must not be empty').max(200_000);
const tokens = z.array(z.int().min(0)).min(1).max(10_000);

/** OpenAI's `/v1/embeddings` request. */
export const EmbeddingsBody = z.strictObject({
  model: z.string().min(1).max(200),
  input: z
    .union([text, z.array(text).min(1).max(2048), tokens, z.array(tokens).min(1).max(2048)])
    .describe('A text or a list of texts (at most 2048). Token arrays are refused (unsupported_parameter): they would need each model’s own tokenizer.'),
  encoding_format: z.enum(['float', 'base64']).optional().describe('`base64`: the little-endian float32 bytes of each vector, base64-encoded (what the openai SDKs ask for)'),
  dimensions: z
    .int()
    .min(1)
    .max(16_384)
    .optional()
    .describe('Fewer dimensions, for a provider model that can shorten its vectors; the offline hashing model has one size only (any other is unsupported_parameter)'),
  user: z.string().max(256).optional(),
});
export type EmbeddingsBody = z.infer<typeof EmbeddingsBody>;

export const EmbeddingsResponse = z.object({
  object: z.literal('list'),
  data: z.array(
    z.object({
      object: z.literal('embedding'),
      index: z.int(),
      embedding: z.union([z.array(z.number()), z.string()]).describe('Numbers, or with encoding_format base64 a base64 string'),
    }),
  ),
  model: z.string(),
  usage: z.object({ prompt_tokens: z.int(), total_tokens: z.int() }).describe('Tokens counted by our tokenizer estimate, for every model'),
});
