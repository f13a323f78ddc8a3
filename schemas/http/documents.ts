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
  external_id: z.string().trim().min(1).max(500).optional().describe('The id of the document in its source: an upload with the external_id of a live document becomes its next version'),
  on_conflict: z.enum(['new_version', 'keep_both', 'skip']).optional(),
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
export const Document = DocumentDoc.omit({ workspace_id: true, chunking: true, versions: true, version: true, current_version: true, external_id: true }).extend({
  status: DocumentDoc.shape.status.describe('The processing of the newest version (`version`): while a new version is queued, parsing or indexing, or after it failed, `current_version` keeps answering'),
  version: z.int().min(1).describe('The newest version: 1 for a document that never changed'),
  current_version: z.int().min(1).nullable().describe('The version search, chat and every other retrieval answer from; null until a version is ready'),
  version_count: z.int().min(1).describe('How many versions the document has'),
  external_id: z.string().nullable().describe('The id the upload gave the document (`external_id`): a later upload with the same one becomes its next version; null when none was given'),
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
  skipped: z
    .literal(true)
    .optional()
    .describe('Present (true) with on_conflict "skip" when a live document had this name (or external_id): the answer is that document, unchanged'),
});

/** What an upload does when a live document of the knowledge base has its name (or explicit external_id). */
export const OnConflict = z
  .enum(['new_version', 'keep_both', 'skip'])
  .describe('When a live document of the knowledge base has this name (or external_id): new_version (default) makes the upload its next version; keep_both makes a new document beside it; skip answers with the existing document and changes nothing');

/** JSON body of POST …/documents/{id}/versions: text as the new version's content. */
export const TextVersionBody = z.strictObject({
  text: TextUploadBody.shape.text,
  name: TextUploadBody.shape.name.optional().describe('The new version’s name; the current name when absent'),
});

/** One entry of a document's history (GET …/documents/{id}/versions). */
export const DocumentVersion = z.object({
  object: z.literal('document.version'),
  version: z.int().min(1),
  created_at: z.string(),
  name: z.string(),
  media_type: z.string(),
  sha256: z.string(),
  size: z.int().describe('The bytes of this version’s file'),
  pages: z.int().nullable().describe('Its page count once parsed'),
  chunks: z.int().nullable().describe('Its chunk count once parsed'),
  reused_chunks: z.int().nullable().describe('Chunks shared with the version before, whose embeddings, keyword postings and entities were reused: only the others were indexed'),
  uploaded_by: z.string().nullable().describe('The id of the API key that uploaded it; null for versions uploaded before this was kept'),
  status: z.enum(['queued', 'parsing', 'indexing', 'ready', 'failed', 'superseded']).describe('ready: this version answers; superseded: a newer version answers in its place'),
  current: z.boolean().describe('Whether this is the version that answers'),
  superseded_at: z.string().nullable(),
});

export const VersionDiffQuery = z.strictObject({
  against: z.coerce.number().int().min(1).optional().describe('The version to compare with; default the one before'),
});

const DiffChunk = z.object({ chunk_id: z.string(), page: z.int(), text: z.string() });

export const DocumentVersionDiff = z.object({
  object: z.literal('document.version_diff'),
  document_id: z.string(),
  version: z.int().min(1),
  against: z.int().min(0),
  added: z.array(DiffChunk).describe('Chunks only this version has, in reading order'),
  removed: z.array(DiffChunk).describe('Chunks only the version compared with has'),
  changed: z.array(z.object({ before: DiffChunk, after: DiffChunk })).describe('Chunks rewritten in the same place: most of their words kept'),
  unchanged: z.int().describe('How many chunks the two versions share'),
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
