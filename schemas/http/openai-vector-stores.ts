import { z } from 'zod';
import { ListQuery } from './common.ts';
import { BoundedFilterGrammar } from './filter.ts';

/** OpenAI's attributes: at most 16 keys, each value a string (up to 512 characters), a number or a boolean. */
export const Attributes = z
  .record(z.string().min(1).max(64), z.union([z.string().max(512), z.number(), z.boolean()]))
  .refine((a) => Object.keys(a).length <= 16, { message: 'at most 16 attributes' });

export const ChunkingStrategy = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('auto') }),
  z.strictObject({
    type: z.literal('static'),
    static: z
      .strictObject({ max_chunk_size_tokens: z.int().min(100).max(4096), chunk_overlap_tokens: z.int().min(0) })
      .refine((s) => s.chunk_overlap_tokens <= s.max_chunk_size_tokens / 2, { message: 'chunk_overlap_tokens must not exceed half of max_chunk_size_tokens' }),
  }),
]);
export type ChunkingStrategy = z.infer<typeof ChunkingStrategy>;

const ExpiresAfter = z.strictObject({ anchor: z.literal('last_active_at'), days: z.int().min(1).max(365) });
const Metadata = z.record(z.string().max(64), z.string().max(512)).refine((m) => Object.keys(m).length <= 16, { message: 'at most 16 metadata keys' });

export const VectorStoreCreateBody = z.object({
  name: z.string().min(1).max(200).optional(),
  file_ids: z.array(z.string().min(1).max(200)).max(100).optional(),
  chunking_strategy: ChunkingStrategy.optional(),
  expires_after: ExpiresAfter.nullable().optional(),
  metadata: Metadata.nullable().optional(),
  description: z.string().max(2000).optional(),
});

export const VectorStoreUpdateBody = z.object({
  name: z.string().min(1).max(200).nullable().optional(),
  expires_after: ExpiresAfter.nullable().optional(),
  metadata: Metadata.nullable().optional(),
});

const FileCounts = z.object({ in_progress: z.int(), completed: z.int(), failed: z.int(), cancelled: z.int(), total: z.int() });

export const VectorStore = z.object({
  id: z.string(),
  object: z.literal('vector_store'),
  created_at: z.int(),
  name: z.string(),
  usage_bytes: z.int(),
  file_counts: FileCounts,
  status: z.enum(['in_progress', 'completed', 'expired']),
  expires_after: ExpiresAfter.nullable(),
  expires_at: z.int().nullable(),
  last_active_at: z.int().nullable(),
  metadata: z.record(z.string(), z.string()).nullable(),
});

export const VectorStoreListQuery = ListQuery.extend({ before: z.string().min(1).max(200).optional() });

export const VectorStoreFileBody = z.object({
  file_id: z.string().min(1).max(200),
  attributes: Attributes.nullable().optional(),
  chunking_strategy: ChunkingStrategy.optional(),
});

export const VectorStoreFileUpdateBody = z.object({ attributes: Attributes.nullable() });

export const FileBatchBody = z.object({
  file_ids: z.array(z.string().min(1).max(200)).min(1).max(100).optional(),
  files: z.array(VectorStoreFileBody).min(1).max(100).optional(),
  attributes: Attributes.nullable().optional(),
  chunking_strategy: ChunkingStrategy.optional(),
}).refine((b) => (b.file_ids === undefined) !== (b.files === undefined), { message: 'give file_ids or files, not both', path: ['file_ids'] });

export const VectorStoreFileStatus = z.enum(['in_progress', 'completed', 'failed', 'cancelled']);
export type VectorStoreFileStatus = z.infer<typeof VectorStoreFileStatus>;
export const VectorStoreFileListQuery = VectorStoreListQuery.extend({ filter: VectorStoreFileStatus.optional() });

export const VectorStoreFile = z.object({
  id: z.string(),
  object: z.literal('vector_store.file'),
  created_at: z.int(),
  usage_bytes: z.int(),
  vector_store_id: z.string(),
  status: VectorStoreFileStatus,
  last_error: z.object({ code: z.enum(['server_error', 'unsupported_file', 'invalid_file']), message: z.string() }).nullable(),
  attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  chunking_strategy: z.object({ type: z.literal('static'), static: z.object({ max_chunk_size_tokens: z.int(), chunk_overlap_tokens: z.int() }) }),
});

export const FileBatch = z.object({
  id: z.string(),
  object: z.literal('vector_store.files_batch'),
  created_at: z.int(),
  vector_store_id: z.string(),
  status: VectorStoreFileStatus,
  file_counts: FileCounts,
});

export const VectorStoreSearchBody = z.object({
  query: z.union([z.string().min(1).max(4000), z.array(z.string().min(1).max(4000)).min(1).max(10)]),
  filters: BoundedFilterGrammar.optional(),
  max_num_results: z.int().min(1).max(50).default(10),
  ranking_options: z.object({ ranker: z.enum(['none', 'auto', 'default-2024-11-15']).optional(), score_threshold: z.number().min(0).max(1).optional() }).optional(),
  rewrite_query: z.boolean().default(false),
});
export type VectorStoreSearchBody = z.infer<typeof VectorStoreSearchBody>;

export const VectorStoreSearchPage = z.object({
  object: z.literal('vector_store.search_results.page'),
  search_query: z.array(z.string()),
  data: z.array(
    z.object({
      file_id: z.string(),
      filename: z.string(),
      score: z.number(),
      attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
      content: z.array(z.object({ type: z.literal('text'), text: z.string() })),
    }),
  ),
  has_more: z.boolean(),
  next_page: z.string().nullable(),
});

export const VectorStoreFileContent = z.object({
  object: z.literal('vector_store.file_content.page'),
  data: z.array(z.object({ type: z.literal('text'), text: z.string() })),
  has_more: z.boolean(),
  next_page: z.string().nullable(),
});
