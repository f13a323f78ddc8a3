import { KbqaError } from '../errors.ts';
import type { Transport } from '../http.ts';
import { readJsonEvents } from '../sse.ts';
import type { Chunk, Chunking, Deleted, Document, DocumentStatus, ListParams, MetadataValue, Page, ServerEvent } from '../types.ts';
import { newIdempotencyKey } from '../idempotency.ts';
import { multipartBody, type FormPart } from '../multipart.ts';
import { waitForDocuments, type WaitOptions } from './wait.ts';

/** A file to upload: a `File`, or a name with its bytes (a string is sent as UTF-8). */
export type UploadFile = Blob | { name: string; data: Blob | ArrayBuffer | Uint8Array | string; type?: string };

export type UploadOptions = WaitOptions & {
  metadata?: Record<string, MetadataValue>;
  chunking?: Chunking;
  /** Sent as `Idempotency-Key`, which also makes the upload safe to retry. A fresh one per call by default; `false` sends none. */
  idempotencyKey?: string | false;
  /** Resolve only when every document is `ready` (a `failed` one throws DocumentFailedError), reporting progress on the way. */
  wait?: boolean;
};

export type TextUpload = { name: string; text: string };

const base = (kbId: string) => `/knowledge-bases/${encodeURIComponent(kbId)}/documents`;
const one = (kbId: string, docId: string) => `${base(kbId)}/${encodeURIComponent(docId)}`;

function part(file: UploadFile): { blob: Blob; filename: string } {
  if (file instanceof Blob) {
    const name = (file as Blob & { name?: unknown }).name;
    if (typeof name !== 'string' || name === '') throw new KbqaError('A Blob to upload needs a name: pass a File, or {name, data}.');
    return { blob: file, filename: name };
  }
  const { data, name, type = 'application/octet-stream' } = file;
  const bytes = typeof data === 'string' || data instanceof Blob ? data : new Uint8Array(data);
  return { blob: data instanceof Blob ? data : new Blob([bytes], { type }), filename: name };
}

function idempotencyHeader(key: string | false | undefined): Record<string, string> {
  return key === false ? {} : { 'idempotency-key': key ?? newIdempotencyKey() };
}

/** One version of a document (GET …/versions). */
export type DocumentVersion = {
  object: 'document.version';
  version: number;
  created_at: string;
  name: string;
  media_type: string;
  sha256: string;
  size: number;
  pages: number | null;
  chunks: number | null;
  reused_chunks: number | null;
  uploaded_by: string | null;
  status: string;
  current: boolean;
  superseded_at: string | null;
};
export type DiffChunk = { chunk_id: string; page: number; text: string };
/** What changed from version `against` to `version`. */
export type DocumentVersionDiff = {
  object: 'document.version_diff';
  document_id: string;
  version: number;
  against: number;
  added: DiffChunk[];
  removed: DiffChunk[];
  changed: { before: DiffChunk; after: DiffChunk }[];
  unchanged: number;
};

/** A document's versions (issue 44): list, add (text), download, compare, restore. */
function versionsResource(t: Transport) {
  const path = (kbId: string, docId: string, version?: number) => `${one(kbId, docId)}/versions${version === undefined ? '' : `/${version}`}`;
  return {
    async list(kbId: string, docId: string, options: { signal?: AbortSignal } = {}): Promise<Page<DocumentVersion>> {
      return (await t.json<Page<DocumentVersion>>({ method: 'GET', path: path(kbId, docId), signal: options.signal })).body;
    },
    /** New text content as the document's next version (201), or the document unchanged when it is the newest version's already. */
    async add(kbId: string, docId: string, body: { text: string; name?: string }, options: { signal?: AbortSignal } = {}): Promise<Document> {
      return (await t.json<Document>({ method: 'POST', path: path(kbId, docId), json: body, signal: options.signal })).body;
    },
    /** A version's original bytes. */
    async content(kbId: string, docId: string, version: number, options: { signal?: AbortSignal } = {}): Promise<Uint8Array> {
      const { response, release } = await t.send({ method: 'GET', path: `${path(kbId, docId, version)}/content`, signal: options.signal });
      try {
        return new Uint8Array(await response.arrayBuffer());
      } finally {
        release();
      }
    },
    async diff(kbId: string, docId: string, version: number, params: { against?: number; signal?: AbortSignal } = {}): Promise<DocumentVersionDiff> {
      const { signal, ...query } = params;
      return (await t.json<DocumentVersionDiff>({ method: 'GET', path: `${path(kbId, docId, version)}/diff`, query, signal })).body;
    },
    /** A new version with version `version`'s bytes; the document unchanged when the newest has them already. */
    async restore(kbId: string, docId: string, version: number, options: { signal?: AbortSignal } = {}): Promise<Document> {
      return (await t.json<Document>({ method: 'POST', path: `${path(kbId, docId, version)}/restore`, signal: options.signal })).body;
    },
  };
}

export function documentsResource(t: Transport) {
  const resource = {
    versions: versionsResource(t),
    /** Multipart upload of one or more files; answers with the documents `queued`, or settled with `wait: true`. */
    async upload(kbId: string, files: UploadFile | UploadFile[], options: UploadOptions = {}): Promise<Document[]> {
      const parts: FormPart[] = (Array.isArray(files) ? files : [files]).map((file) => ({ name: 'file', ...part(file) }));
      if (options.metadata) parts.push({ name: 'metadata', value: JSON.stringify(options.metadata) });
      if (options.chunking) parts.push({ name: 'chunking', value: JSON.stringify(options.chunking) });
      const { body: form, contentType } = multipartBody(parts);
      const headers = { 'content-type': contentType, ...idempotencyHeader(options.idempotencyKey) };
      const { body } = await t.json<Page<Document>>({ method: 'POST', path: base(kbId), form, headers, signal: options.signal });
      return options.wait ? waitForDocuments(t, kbId, body.data, options) : body.data;
    },
    /** Plain text or Markdown as a document (`name` says which: `notes.md`, `notes.txt`). */
    async uploadText(kbId: string, text: TextUpload, options: UploadOptions = {}): Promise<Document> {
      const json = { ...text, ...(options.metadata && { metadata: options.metadata }), ...(options.chunking && { chunking: options.chunking }) };
      const headers = idempotencyHeader(options.idempotencyKey);
      const { body } = await t.json<Page<Document>>({ method: 'POST', path: base(kbId), json, headers, signal: options.signal });
      return (options.wait ? await waitForDocuments(t, kbId, body.data, options) : body.data)[0]!;
    },
    /**
     * Waits until each document is `ready`, following its server-sent lifecycle and calling
     * `onProgress` on every step; throws DocumentFailedError if one `failed`.
     */
    waitUntilReady(kbId: string, documents: (string | Document)[] | string | Document, options: WaitOptions = {}): Promise<Document[]> {
      return waitForDocuments(t, kbId, Array.isArray(documents) ? documents : [documents], options);
    },
    async list(kbId: string, params: ListParams & { status?: DocumentStatus; signal?: AbortSignal } = {}): Promise<Page<Document>> {
      const { signal, ...query } = params;
      return (await t.json<Page<Document>>({ method: 'GET', path: base(kbId), query, signal })).body;
    },
    async get(kbId: string, docId: string, options: { signal?: AbortSignal } = {}): Promise<Document> {
      return (await t.json<Document>({ method: 'GET', path: one(kbId, docId), signal: options.signal })).body;
    },
    /** The document's chunks in order; continue with `after: <last chunk's index>`. */
    async chunks(kbId: string, docId: string, params: { limit?: number; after?: number; signal?: AbortSignal } = {}): Promise<Page<Chunk>> {
      const { signal, ...query } = params;
      return (await t.json<Page<Chunk>>({ method: 'GET', path: `${one(kbId, docId)}/chunks`, query, signal })).body;
    },
    /**
     * Page `page` (1-based) of a PDF or scanned image as PNG bytes; `highlight`: a chunk id on that
     * page (a citation's `chunk_id`) whose lines are drawn highlighted, only those of `char_start`..`char_end`
     * when given (a citation's span). Other formats: 415 `page_image_unavailable`.
     */
    async pageImage(
      kbId: string,
      docId: string,
      page: number,
      params: { highlight?: string; char_start?: number; char_end?: number; width?: number; signal?: AbortSignal } = {},
    ): Promise<Uint8Array> {
      const { signal, ...query } = params;
      const { response, release } = await t.send({ method: 'GET', path: `${one(kbId, docId)}/pages/${page}/image`, query, signal });
      try {
        return new Uint8Array(await response.arrayBuffer());
      } finally {
        release();
      }
    },
    async delete(kbId: string, docId: string, options: { signal?: AbortSignal } = {}): Promise<Deleted> {
      return (await t.json<Deleted>({ method: 'DELETE', path: one(kbId, docId), signal: options.signal })).body;
    },
    /** The document as it stands (`document`), then its lifecycle events live with `progress`, ending when it is ready, failed or deleted. */
    async *events(kbId: string, docId: string, options: { signal?: AbortSignal } = {}): AsyncGenerator<ServerEvent> {
      yield* readJsonEvents(await t.stream({ method: 'GET', path: `${one(kbId, docId)}/events`, signal: options.signal }));
    },
  };
  return resource;
}

export type DocumentsResource = ReturnType<typeof documentsResource>;
