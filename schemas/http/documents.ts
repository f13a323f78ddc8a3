import { z } from 'zod';
import { DocumentMetadata, PageBox } from '../events/document.ts';
import { DocumentStatus } from '../lifecycles.ts';
import { SortOrder } from './common.ts';

export const UploadChunking = z.strictObject({
  max_tokens: z.int().min(32).max(8192).optional(),
  overlap_tokens: z.int().min(0).max(4096).optional(),
});

export const UploadMetadata = DocumentMetadata.refine((m) => Object.keys(m).length <= 50, { message: 'at most 50 metadata keys' });

export const TextUploadBody = z.strictObject({
  name: z.string().trim().min(1).max(255).refine((n) => !n.includes('\u0000'), { message: 'must not contain the NUL character (U+0000)' }),
  // A NUL makes the parser take the text for binary: refuse it here rather than fail the document later.
  text: z.string().min(1).refine((t) => !t.includes('\u0000'), { message: 'must not contain the NUL character (U+0000)' }),
  metadata: UploadMetadata.optional(),
  chunking: UploadChunking.optional(),
});

export const DocumentListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  after: z.string().min(1).max(200).optional(),
  order: SortOrder.default('desc'),
  status: DocumentStatus.optional(),
});

export const ChunkListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  after: z.coerce.number().int().min(-1).optional(),
});

export const PageImageQuery = z.strictObject({
  highlight: z.string().min(1).max(200).optional().describe('A chunk id of this document on this page: its lines are drawn highlighted'),
  char_start: z.coerce.number().int().min(0).optional().describe('With highlight and char_end: only the lines of this span of the page’s text (a citation’s char_start/char_end)'),
  char_end: z.coerce.number().int().min(0).optional(),
  width: z.coerce.number().int().min(64).max(2400).default(1000).describe('Width of the image in pixels; the height keeps the page’s proportions'),
});

export const Document = z.object({
  id: z.string(),
  object: z.literal('document'),
  knowledge_base_id: z.string(),
  name: z.string(),
  media_type: z.string(),
  size_bytes: z.int(),
  sha256: z.string(),
  status: DocumentStatus,
  metadata: DocumentMetadata,
  parent_document_id: z
    .string()
    .nullable()
    .describe("The email this document was attached to: an email's attachments in a supported format become documents of their own, deleted with the email; null for an uploaded file"),
  page_count: z.int().nullable(),
  page_estimated: z
    .boolean()
    .describe('True when the file does not say where its pages break (a Word file never laid out by Word): page_count and chunk pages are then estimated from the amount of text'),
  chunk_count: z.int().nullable(),
  ocr_pages: z.array(z.int()),
  warnings: z.array(z.string()),
  error: z.object({ stage: z.string(), code: z.string(), message: z.string() }).nullable(),
  timings: z.object({
    parse_ms: z.int().nullable(),
    index_ms: z.int().nullable(),
    parsing_started_at: z.string().nullable(),
    parsed_at: z.string().nullable(),
    indexed_at: z.string().nullable(),
  }),
  created_at: z.string(),
  updated_at: z.string(),
});

export const Chunk = z.object({
  id: z.string(),
  object: z.literal('chunk'),
  document_id: z.string(),
  index: z.int(),
  source: z.string(),
  page: z.int(),
  paragraph: z.string(),
  heading_path: z.array(z.string()),
  char_start: z.int(),
  char_end: z.int(),
  token_count: z.int(),
  boxes: z.array(PageBox).describe('The chunk’s lines on `page`, as fractions of the page from its top left (`start`: the line’s offset in `paragraph`); empty for formats without page layout'),
});
