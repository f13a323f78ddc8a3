import { z } from 'zod';
import { DocumentMetadata, PageBox } from '../events/document.ts';
import { DocumentStatus } from '../lifecycles.ts';
import { DocumentDoc } from '../read-models/documents.ts';
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

/** A document as the API shows it: the read model less what stays inside, with the fields older documents lack filled in (presentDocument). */
export const Document = DocumentDoc.omit({ workspace_id: true, chunking: true }).extend({
  parent_document_id: DocumentDoc.shape.parent_document_id
    .unwrap()
    .nullable()
    .describe("The email this document was attached to: an email's attachments in a supported format become documents of their own, deleted with the email; null for an uploaded file"),
  page_estimated: DocumentDoc.shape.page_estimated.unwrap(),
});
export type Document = z.infer<typeof Document>;

/** A document as an upload answers it: `deduplicated` says the bytes were already there. */
export const UploadedDocument = Document.extend({
  deduplicated: z
    .literal(true)
    .optional()
    .describe('Present (true) when the knowledge base already held these bytes: the answer is that existing document (its own name and status), nothing new is parsed'),
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
