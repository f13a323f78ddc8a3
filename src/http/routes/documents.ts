import { Readable } from 'node:stream';
import { z } from 'zod';
import type { DocumentService } from '../../app/services/documents.ts';
import type { StoredFile } from '../../app/services/stored-file.ts';
import { badRequest, unsupportedMediaType } from '../../app/errors.ts';
import { MEDIA_TYPES, textTypeByName } from '../../domain/document/media-type.ts';
import type { BlobStore } from '../../ports/blob-store.ts';
import type { MediaTypeDetector } from '../../ports/media-type-detector.ts';
import { Deleted, listOf } from '../../../schemas/http/common.ts';
import { OCR_ISO_CODES, OCR_MODELS, OcrLanguages } from '../../../schemas/ocr-languages.ts';
import {
  Chunk,
  ChunkListQuery,
  Document,
  DocumentListQuery,
  OnConflict,
  TextUploadBody,
  UploadChunking,
  UploadedDocument,
  UploadMetadata,
} from '../../../schemas/http/documents.ts';
import { type BodyPace, type JsonReader, jsonReader } from '../body.ts';
import { receiveMultipart, type ReceivedFile } from '../multipart.ts';
import { route } from '../route.ts';
import { streamDocumentEvents, type DocumentEventsDeps } from '../sse-document-events.ts';
import { parseOr400 } from '../validate.ts';
import type { KnowledgeBaseFeedDeps } from '../sse-knowledge-base-documents.ts';
import { documentFeedRoute } from './document-feed.ts';
import { SUPPORTED_FORMATS } from '../../domain/document/supported-formats.ts';
import { pageImageRoute } from './page-images.ts';
import { documentVersionRoutes, jsonField } from './document-versions.ts';

export type DocumentRouteDeps = {
  documents: DocumentService;
  blobs: BlobStore;
  /** Types each uploaded file by its bytes before the upload is accepted. */
  detectMediaType: MediaTypeDetector;
  maxUploadBytes: number;
  maxFilesPerUpload: number;
  events: DocumentEventsDeps;
  /** The knowledge base's stream of every document (document-feed.ts). */
  feed: KnowledgeBaseFeedDeps;
  /** How fast an upload's body must arrive (body.ts). */
  bodyPace: BodyPace;
};

const tag = 'documents';
const UPLOAD_FIELDS = ['metadata', 'chunking', 'ocr_languages', 'on_conflict', 'external_id'];
const base = '/v1/knowledge-bases/:kb_id/documents';


/** onServerError hears failures past the start of an event stream, with the request's id. */
export function documentRoutes(deps: DocumentRouteDeps, onServerError: (error: unknown, requestId: string) => void) {
  const { documents, blobs, detectMediaType } = deps;
  // A JSON text upload may be as large as a file. Made at the first upload: a table built only to be described has no limits.
  let readText: JsonReader | undefined;

  /** Types are decided by the bytes; an unsupported one, or none at all, rejects the whole upload before anything is queued. */
  async function typed(files: ReceivedFile[]): Promise<StoredFile[]> {
    // Nothing to sniff or parse: the client hears it now rather than from a document failed later.
    const empty = files.filter((f) => f.sizeBytes === 0).map((f) => `'${f.name}'`);
    if (empty.length > 0) throw badRequest('empty_file', `file: ${empty.join(', ')} ${empty.length === 1 ? 'is' : 'are'} empty (0 bytes); upload files with content`, 'file');
    const out: StoredFile[] = [];
    const refused: string[] = [];
    for (const file of files) {
      const local = await blobs.localPath(file.sha256);
      const detected = await detectMediaType(local!.path, file.name);
      await local!.release();
      if (!detected.ok && detected.code === 'unsupported_type') refused.push(file.name);
      // Encrypted files, and files with bytes but no text, are accepted: they fail as documents, with their reason, for the client to see.
      out.push({ ...file, mediaType: detected.ok ? detected.mediaType : guessByName(file.name) });
    }
    if (refused.length > 0) {
      await Promise.all(files.filter((f) => refused.includes(f.name)).map((f) => blobs.delete(f.sha256)));
      throw unsupportedMediaType(`The type of ${refused.join(', ')} is not supported; upload ${SUPPORTED_FORMATS} files instead.`);
    }
    return out;
  }

  return [
    route({
      method: 'post',
      path: base,
      summary: 'Upload documents: multipart `file` parts (+ optional `metadata`, `chunking` JSON fields and `ocr_languages`), or JSON {name, text}',
      tag,
      scope: 'write',
      status: 202,
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file'],
              properties: {
                file: { type: 'array', items: { type: 'string', format: 'binary' } },
                metadata: { type: 'string', description: 'JSON object of string, number or boolean values' },
                chunking: { type: 'string', description: 'JSON {max_tokens?, overlap_tokens?}' },
                ocr_languages: {
                  type: 'string',
                  description: `Languages to OCR scans and images in, comma-separated (tesseract or ISO 639-1 codes: ${OCR_MODELS.join(', ')}, ${Object.keys(OCR_ISO_CODES).join(', ')}); overrides the knowledge base's ocr.languages. Unset: detected per page.`,
                },
                on_conflict: { ...z.toJSONSchema(OnConflict), default: 'new_version' },
                external_id: { type: 'string', maxLength: 500, description: 'The document’s id in its source: matched instead of the name (one file per upload)' },
              },
            },
          },
          'application/json': { schema: z.toJSONSchema(TextUploadBody, { io: 'input' }) },
        },
      },
      response: listOf(UploadedDocument),
      handle: async ({ ctx, principal, params, requestId }) => {
        await documents.knowledgeBase(principal, params.kb_id);
        let received: {
          files: StoredFile[];
          metadata?: Record<string, string | number | boolean>;
          chunking?: z.infer<typeof UploadChunking>;
          ocrLanguages?: string[];
          onConflict?: z.infer<typeof OnConflict>;
          externalId?: string;
        };
        if (ctx.is('application/json')) {
          const body = parseOr400(TextUploadBody, await (readText ??= jsonReader(deps.maxUploadBytes, deps.bodyPace))(ctx));
          const blob = await blobs.put(Readable.from([Buffer.from(body.text, 'utf8')]), { maxBytes: deps.maxUploadBytes });
          // JSON text is text by construction; its name only says which kind (the parser still sniffs).
          const file = { name: body.name, sha256: blob.sha256, sizeBytes: blob.sizeBytes, mediaType: textTypeByName(body.name) };
          received = { files: [file], metadata: body.metadata, chunking: body.chunking, onConflict: body.on_conflict, externalId: body.external_id };
        } else {
          const { files, fields } = await receiveMultipart(ctx, blobs, { maxFileBytes: deps.maxUploadBytes, maxFiles: deps.maxFilesPerUpload }, deps.bodyPace);
          const unknown = Object.keys(fields).find((f) => !UPLOAD_FIELDS.includes(f));
          if (unknown) parseOr400(z.strictObject({}), { [unknown]: true });
          if (files.length === 0) parseOr400(z.object({ file: z.string() }), {});
          received = {
            files: await typed(files),
            metadata: jsonField(UploadMetadata, fields.metadata, 'metadata'),
            chunking: jsonField(UploadChunking, fields.chunking, 'chunking'),
            ocrLanguages: fields.ocr_languages ? parseOr400(OcrLanguages, fields.ocr_languages.split(',').map((c) => c.trim()), 'ocr_languages') : undefined,
            onConflict: fields.on_conflict ? parseOr400(OnConflict, fields.on_conflict, 'on_conflict') : undefined,
            externalId: fields.external_id ? parseOr400(TextUploadBody.shape.external_id.unwrap(), fields.external_id, 'external_id') : undefined,
          };
        }
        // One id names one document: several files cannot all be it.
        if (received.externalId !== undefined && received.files.length > 1) throw badRequest('invalid_value', 'external_id: names one document; upload one file with it.', 'external_id');
        const files = received.files;
        const idempotencyKey = ctx.get('idempotency-key') || undefined;
        const body = await documents.upload(principal, params.kb_id, files, {
          metadata: received.metadata ?? {},
          chunking: received.chunking ?? {},
          ocrLanguages: received.ocrLanguages,
          onConflict: received.onConflict,
          externalId: received.externalId,
          idempotencyKey,
          requestId,
        });
        // Nothing was uploaded when every file was skipped: the documents as they are.
        return { status: body.data.length > 0 && body.data.every((d) => d.skipped) ? 200 : 202, body };
      },
    }),
    route({
      method: 'get',
      path: base,
      summary: 'List the documents of a knowledge base (filter by status)',
      tag,
      scope: 'read',
      query: DocumentListQuery,
      response: listOf(Document),
      handle: async ({ principal, params, query }) => ({ body: await documents.list(principal, params.kb_id, query, query.status) }),
    }),
    // Before `${base}/:document_id`, which `events` would match.
    documentFeedRoute(documents, deps.feed, onServerError),
    route({
      method: 'get',
      path: `${base}/:document_id`,
      summary: 'Get a document: status, pages, chunks, timings, error',
      tag,
      scope: 'read',
      response: Document,
      handle: async ({ principal, params }) => ({ body: await documents.get(principal, params.kb_id, params.document_id) }),
    }),
    route({
      method: 'get',
      path: `${base}/:document_id/chunks`,
      summary: 'The chunks of a document in order, with page, paragraph and heading path',
      tag,
      scope: 'read',
      query: ChunkListQuery,
      response: listOf(Chunk),
      handle: async ({ principal, params, query }) => ({ body: await documents.chunks(principal, params.kb_id, params.document_id, query) }),
    }),
    pageImageRoute(documents),
    ...documentVersionRoutes({ documents, blobs, typed, readText: () => (readText ??= jsonReader(deps.maxUploadBytes, deps.bodyPace)), maxUploadBytes: deps.maxUploadBytes, bodyPace: deps.bodyPace }),
    route({
      method: 'get',
      path: `${base}/:document_id/events`,
      summary: 'Server-sent events: the document as it stands, then its lifecycle live, with parse and index progress',
      tag,
      scope: 'read',
      eventStream:
        'First `event: document` with the document as `GET …/documents/{document_id}` returns it; then one event per lifecycle step as it happens (`event:` its type, such as DocumentParsed; `data:` its JSON with `revision`) and `progress` events; the stream ends when the document is ready, failed or deleted (at once if it already is).',
      handle: async ({ ctx, principal, params, requestId }) => {
        const doc = await documents.get(principal, params.kb_id, params.document_id);
        return streamDocumentEvents(ctx, { ...deps.events, onServerError: (error) => onServerError(error, requestId) }, doc.id);
      },
    }),
    route({
      method: 'delete',
      path: `${base}/:document_id`,
      summary: 'Delete a document and take its chunks out of every index',
      tag,
      scope: 'write',
      response: Deleted('document.deleted'),
      handle: async ({ principal, params, requestId }) => ({ body: await documents.remove(principal, params.kb_id, params.document_id, requestId) }),
    }),
  ];
}

function guessByName(name: string): string {
  const ext = name.toLowerCase().split('.').pop();
  const byExt: Record<string, string> = {
    pdf: MEDIA_TYPES.pdf,
    docx: MEDIA_TYPES.docx,
    xlsx: MEDIA_TYPES.xlsx,
    pptx: MEDIA_TYPES.pptx,
    epub: MEDIA_TYPES.epub,
    eml: MEDIA_TYPES.eml,
    doc: MEDIA_TYPES.doc,
    xls: MEDIA_TYPES.xls,
    csv: MEDIA_TYPES.csv,
    md: MEDIA_TYPES.markdown,
    html: MEDIA_TYPES.html,
  };
  return byExt[ext ?? ''] ?? 'application/octet-stream';
}
