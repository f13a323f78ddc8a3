import type { Answer } from '../../api/client.ts';

export type Document = Answer<'/v1/knowledge-bases/{kb_id}/documents/{document_id}', 'get'>;
export type Status = Document['status'];

/**
 * A row of the documents screen: a document the API knows, or a file still uploading (its id then
 * local, `upload:<n>`, until the API answers). Filled from the list, the upload's answer and the
 * knowledge base's event stream, whichever comes first.
 */
export type DocumentRow = {
  id: string;
  name: string;
  status: Status;
  /** 0–1 while the file is being sent; undefined once the API has it. */
  uploaded?: number;
  pagesParsed?: number;
  pageCount?: number | null;
  chunksIndexed?: number;
  chunkCount?: number | null;
  error?: { stage: string; code: string; message: string; detail?: string } | null;
  /** The file, kept when it was dropped in this visit, so that "Upload again" can send it again. */
  file?: File;
  /** Whether the API holds it (so it can be opened and deleted). */
  stored: boolean;
};

export type Rows = ReadonlyMap<string, DocumentRow>;

/** What a row shows, in its badge and beside its bar alike: while the file is sent, "uploading". */
export type Phase = Status | 'uploading';

export function phaseOf(row: DocumentRow): Phase {
  return row.uploaded !== undefined ? 'uploading' : row.status;
}

const RANK: Record<Status, number> = { queued: 0, parsing: 1, indexing: 2, ready: 3, failed: 3 };

/** A document's status only moves forward: an older report (a list read before an event) never undoes a newer one. */
function later(current: Status | undefined, next: Status): Status {
  return current && RANK[current] > RANK[next] ? current : next;
}

export function rowOfDocument(doc: Document, file?: File): DocumentRow {
  return { id: doc.id, name: doc.name, status: doc.status, pageCount: doc.page_count, chunkCount: doc.chunk_count, error: doc.error, file, stored: true };
}

/** Merges what the API said of a document (list, upload answer, GET) into its row. */
export function withDocument(rows: Rows, doc: Document, file?: File): Rows {
  const current = rows.get(doc.id);
  const next = new Map(rows);
  const fresh = rowOfDocument(doc, file ?? current?.file);
  next.set(doc.id, current ? { ...current, ...fresh, status: later(current.status, doc.status), chunkCount: fresh.chunkCount ?? current.chunkCount, pageCount: fresh.pageCount ?? current.pageCount } : fresh);
  return next;
}

export function withChange(rows: Rows, id: string, change: (row: DocumentRow) => Partial<DocumentRow>): Rows {
  const row = rows.get(id);
  if (!row) return rows;
  return new Map(rows).set(id, { ...row, ...change(row) });
}

export function without(rows: Rows, id: string): Rows {
  const next = new Map(rows);
  next.delete(id);
  return next;
}

type LifecycleData = {
  document_id: string;
  status?: Status | 'deleted';
  name?: string;
  page_count?: number;
  chunk_count?: number;
  stage?: string;
  code?: string;
  message?: string;
  detail?: string;
};

type ProgressData = { document_id: string; stage: 'parsing' | 'indexing'; pages_parsed?: number; page_count?: number; chunks_indexed?: number; chunk_count?: number };

/** One event of the knowledge base's ingestion stream (docs/console-session.md) applied to the rows. */
export function withEvent(rows: Rows, type: string | undefined, data: unknown): Rows {
  if (!data || typeof data !== 'object' || !('document_id' in data)) return rows;
  if (type === 'progress') return withProgress(rows, data as ProgressData);
  const event = data as LifecycleData;
  if (event.status === 'deleted') return without(rows, event.document_id);
  if (!event.status) return rows;
  const status = event.status;
  const sending = rows.has(event.document_id) ? undefined : [...rows.values()].find((r) => !r.stored && r.status !== 'failed' && r.name === event.name);
  // The stream told of a file still being sent before its upload answered: the file's row becomes
  // the document's, where it is (a second row at the end showed the file twice, then moved it).
  if (sending) rows = replaced(rows, sending.id, { ...sending, id: event.document_id, uploaded: undefined, stored: true });
  const current = rows.get(event.document_id) ?? { id: event.document_id, name: event.name ?? event.document_id, status, stored: true };
  const row: DocumentRow = {
    ...current,
    status: later(current.status, status),
    pageCount: event.page_count ?? current.pageCount,
    chunkCount: event.chunk_count ?? current.chunkCount,
    error: status === 'failed' ? { stage: event.stage ?? '', code: event.code ?? '', message: event.message ?? '', ...(event.detail && { detail: event.detail }) } : current.error,
  };
  return new Map(rows).set(row.id, row);
}

/** The row `id` replaced by `row` (another id maybe), in the same place. */
function replaced(rows: Rows, id: string, row: DocumentRow): Rows {
  const next = new Map<string, DocumentRow>();
  for (const [key, value] of rows) next.set(key === id ? row.id : key, key === id ? row : value);
  return next;
}

function withProgress(rows: Rows, progress: ProgressData): Rows {
  return withChange(rows, progress.document_id, (row) =>
    progress.stage === 'parsing'
      ? { status: later(row.status, 'parsing'), pagesParsed: progress.pages_parsed, pageCount: progress.page_count ?? row.pageCount }
      : { status: later(row.status, 'indexing'), chunksIndexed: progress.chunks_indexed, chunkCount: progress.chunk_count ?? row.chunkCount },
  );
}

/**
 * How far the file is, 0–100, over its whole way: sending it (the first fifth), parsing its pages
 * (to 60), indexing its chunks (to 100).
 */
export function percentDone(row: DocumentRow): number {
  if (row.status === 'ready') return 100;
  if (row.uploaded !== undefined) return Math.round(row.uploaded * 20);
  if (row.status === 'queued') return 20;
  if (row.status === 'parsing') return 20 + Math.round(40 * fraction(row.pagesParsed, row.pageCount));
  if (row.status === 'indexing') return 60 + Math.round(40 * fraction(row.chunksIndexed, row.chunkCount));
  return 100;
}

function fraction(done: number | undefined, total: number | null | undefined): number {
  return done !== undefined && total ? Math.min(1, done / total) : 0;
}

/**
 * The uploaded file's row becomes its document's, in the same place: rows stay in the order the
 * files were dropped, also when the stream told of the document first (it made a row at the end).
 * A file whose bytes were already a document (`deduplicated`) leaves no row of its own: the
 * document that holds them stays where it was.
 */
export function withUploaded(rows: Rows, uploadId: string, doc: Document & { deduplicated?: true }, file: File): Rows {
  if (!rows.has(uploadId) || (doc.deduplicated && rows.has(doc.id))) return withDocument(without(rows, uploadId), doc, doc.deduplicated ? undefined : file);
  const merged = withDocument(rows, doc, file).get(doc.id)!;
  return replaced(without(rows, doc.id), uploadId, merged);
}
