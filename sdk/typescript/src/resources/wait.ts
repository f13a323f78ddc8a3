import { APITimeoutError, APIUserAbortError, DocumentFailedError, KbqaError } from '../errors.ts';
import type { Transport } from '../http.ts';
import { sleep } from '../retry.ts';
import { readJsonEvents } from '../sse.ts';
import type { Document, DocumentStatus } from '../types.ts';

/** One step of one document on its way to `ready`, and how many of the waited-for documents have settled. */
export type UploadProgress = {
  document_id: string;
  name: string;
  status: DocumentStatus;
  /** `document` (its state when the stream opened), a lifecycle event (`DocumentParsed` …) or `progress`. */
  event: string;
  pages_parsed?: number;
  page_count?: number;
  chunks_indexed?: number;
  chunk_count?: number;
  /** Documents ready or failed so far, of `total`. */
  settled: number;
  total: number;
};

export type WaitOptions = {
  onProgress?: (progress: UploadProgress) => void;
  /** How long to wait for all documents (10 minutes by default); past it, APITimeoutError. */
  waitTimeoutMs?: number;
  signal?: AbortSignal;
};

const STATUS_OF: Record<string, DocumentStatus> = {
  DocumentUploaded: 'queued',
  DocumentParsingStarted: 'parsing',
  DocumentChunksExtracted: 'parsing',
  DocumentParsed: 'indexing',
  DocumentIndexed: 'ready',
  DocumentFailed: 'failed',
};
const COUNTS = ['pages_parsed', 'page_count', 'chunks_indexed', 'chunk_count'] as const;
const settledStatus = (s: DocumentStatus | null) => s === 'ready' || s === 'failed';
const RECONNECTS = 5;
const isLifecycle = (event: string) => event in STATUS_OF || event === 'progress' || event === 'document';

/** A document's status once one event of its stream is read: the snapshot says it, a progress event names its stage. */
function statusAfter(status: DocumentStatus | null, event: string, data: Record<string, unknown>): DocumentStatus | null {
  if (event === 'document') return typeof data.status === 'string' ? (data.status as DocumentStatus) : status;
  if (event === 'progress') return data.stage === 'indexing' ? 'indexing' : 'parsing';
  return STATUS_OF[event] ?? status;
}

const countsOf = (data: Record<string, unknown>) => Object.fromEntries(COUNTS.filter((k) => typeof data[k] === 'number').map((k) => [k, data[k]]));

export async function waitForDocuments(t: Transport, kbId: string, documents: (string | Document)[], options: WaitOptions): Promise<Document[]> {
  const controller = new AbortController();
  let timedOut = false;
  const timeoutMs = options.waitTimeoutMs ?? 600_000;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const path = (id: string) => `/knowledge-bases/${encodeURIComponent(kbId)}/documents/${encodeURIComponent(id)}`;
  let settled = 0;

  /** Follows one document's event stream to its end, reconnecting if the connection drops first. */
  async function follow(start: string | Document): Promise<Document> {
    const id = typeof start === 'string' ? start : start.id;
    let name = typeof start === 'string' ? id : start.name;
    let counted = false;
    for (let attempt = 0; attempt < RECONNECTS; attempt++) {
      let status: DocumentStatus | null = null;
      const stream = await t.stream({ method: 'GET', path: `${path(id)}/events`, signal: controller.signal });
      for await (const { event, data } of readJsonEvents(stream)) {
        if (event === 'DocumentDeleted') throw new KbqaError(`Document ${id} was deleted while waiting for it.`);
        // The stream opens with the document as it stands (`document`), then its lifecycle events as they happen.
        if ((event === 'document' || event === 'DocumentUploaded') && typeof data.name === 'string') name = data.name;
        status = statusAfter(status, event, data);
        if (status === null || !isLifecycle(event)) continue;
        if (settledStatus(status) && !counted) {
          counted = true;
          settled++;
        }
        options.onProgress?.({ document_id: id, name, status, event, ...countsOf(data), settled, total: documents.length });
        if (settledStatus(status)) break;
      }
      // The read model follows the event it was built from; give it a moment if it lags.
      for (let i = 0; i < 40; i++) {
        const doc = (await t.json<Document>({ method: 'GET', path: path(id), signal: controller.signal })).body;
        if (settledStatus(doc.status)) return doc;
        if (!settledStatus(status)) break;
        await sleep(50, controller.signal);
      }
    }
    throw new KbqaError(`Lost the event stream of document ${id} ${RECONNECTS} times.`);
  }

  try {
    const results = await Promise.all(documents.map(follow));
    if (results.some((d) => d.status !== 'ready')) throw new DocumentFailedError(results);
    return results;
  } catch (error) {
    if (timedOut) throw new APITimeoutError(`Documents not settled within ${timeoutMs} ms.`, { cause: error });
    if (options.signal?.aborted && !(error instanceof APIUserAbortError)) throw new APIUserAbortError('The wait was aborted.', { cause: error });
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    // Ends the streams of documents still being followed when another one failed.
    controller.abort();
  }
}
