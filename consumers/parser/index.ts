import pMap from 'p-map';
import type { EventData } from '../../schemas/events/index.ts';
import { foldStream, handleCommand } from '../../src/app/command-handler.ts';
import { deleteDocument } from '../../src/app/document-removal.ts';
import { type AppContext, commandMetadata } from '../../src/app/context.ts';
import { publishProgress } from '../../src/app/document-feed.ts';
import type { LiveFeed } from '../../src/app/live-feed.ts';
import { chunkStreamDecider, chunkStreamKey } from '../../src/domain/document/chunk-stream.ts';
import { withContentIds } from '../../src/domain/document/chunk-identity.ts';
import { documentDecider } from '../../src/domain/document/document.ts';
import { type ParseLane, parseLane } from '../../src/domain/document/parse-lane.ts';
import { DomainError } from '../../src/domain/shared/errors.ts';
import type { BlobStore } from '../../src/ports/blob-store.ts';
import type { DocumentParser, ParseLimits } from '../../src/ports/document-parser.ts';
import type { MediaTypeDetector } from '../../src/ports/media-type-detector.ts';
import type { ConsumerGroup } from '../../src/ports/event-bus.ts';
import { defineConsumer, failDocument, type FailureLog } from '../shared.ts';
import { type AddedAttachments, addAttachments } from './attachments.ts';

export type ParserDeps = {
  /** The uploads this group parses: the small files' or the others' (domain/document/parse-lane.ts). */
  lane: ParseLane;
  ctx: AppContext;
  blobs: BlobStore;
  parser: DocumentParser;
  /** Types the attachments a parse finds (attachments.ts). */
  detectMediaType: MediaTypeDetector;
  feed: LiveFeed;
  limits: ParseLimits;
  /** An attachment larger than an upload may be is not added (see attachments.ts). */
  maxUploadBytes: number;
  timeoutMs: number;
  /** Parses of this lane at once; its parser has at least as many processes. */
  concurrency: number;
  /** Hears each document this consumer fails (warn, with its code). */
  logger?: FailureLog;
  /** Hears each parse this process recorded (a per-process count in /metrics). */
  onParsed?: (lane: ParseLane) => void;
};

/** The group of each lane: the large lane keeps the name (and so the checkpoint) of the one group there was before lanes. */
export const PARSER_GROUPS: Record<ParseLane, string> = { large: 'parser', small: 'parser-small' };

/**
 * DocumentUploaded of one lane → parse in a worker → the attempt's chunk stream, the documents made from the
 * file's attachments (an email's), then DocumentParsed naming the chunk stream.
 * A parse is in the log once DocumentParsed is: a crash between the two appends leaves a chunk
 * stream nothing reads, and the redelivered upload parses again as the next attempt. A redelivered
 * upload of a document past `parsing` does nothing.
 */
export function parserConsumer(deps: ParserDeps): ConsumerGroup {
  const mine = (upload: Upload) => parseLane(upload) === deps.lane;
  return defineConsumer({
    name: PARSER_GROUPS[deps.lane],
    // A new version is parsed as its document's first upload was: same lanes, same steps.
    eventTypes: ['DocumentUploaded', 'DocumentVersionAdded'],
    batchSize: 16,
    // Every upload of the batch is tried; if any failed, the bus hears the first (in batch order) once all have settled.
    handle: async (batch) => {
      const uploads = batch.filter((event) => mine(event.data));
      await pMap(uploads, (event) => parseOne(deps, event.data), { concurrency: deps.concurrency, stopOnError: false }).catch((error: unknown) => {
        throw error instanceof AggregateError ? error.errors[0] : error;
      });
    },
    onParked: (event, error) =>
      failDocument(deps.ctx, event.data.document_id, { stage: 'parsing', code: 'internal_error', detail: describe(error), version: versionOfUpload(event.data) }, deps.logger),
    // A message of a document's stream that cannot be read (poison on the topic) may be its upload:
    // the document would wait forever, so it fails; one already past parsing stays as it is.
    onUnreadable: async (streamId, error) => {
      const documentId = documentIdOfStream(streamId);
      if (documentId === null) return;
      await failDocument(deps.ctx, documentId, { stage: 'parsing', code: 'unreadable_event', detail: `An event of this document could not be read: ${describe(error)}` }, deps.logger);
    },
  });
}

/** `document-doc_1` → `doc_1`: the document a stream holds, or null for another kind of stream. */
function documentIdOfStream(streamId: string): string | null {
  const prefix = documentDecider.streamId('');
  return streamId.startsWith(prefix) && streamId.length > prefix.length ? streamId.slice(prefix.length) : null;
}

/** What a parse starts from: a document's first upload, or a later version of it. */
type Upload = EventData<'DocumentUploaded'> | EventData<'DocumentVersionAdded'>;

const versionOfUpload = (upload: Upload) => ('version' in upload ? upload.version : 1);

async function parseOne(deps: ParserDeps, upload: Upload) {
  const { ctx, blobs, parser, feed, limits, timeoutMs, logger } = deps;
  const id = upload.document_id;
  const version = versionOfUpload(upload);
  const ofVersion = version > 1 ? { version } : {};
  const started = await run(() =>
    handleCommand(ctx.store, documentDecider, id, { type: 'StartParsing', data: { document_id: id, ...ofVersion }, metadata: commandMetadata(ctx, 'parser') }),
  );
  if (!started || started.events.length === 0 || !('attempt' in started.state)) return;
  const { attempt } = started.state;
  const failed = (failure: Omit<Parameters<typeof failDocument>[2], 'version'>) => failDocument(ctx, id, { ...failure, version }, logger);
  const file = await blobs.localPath('blob' in upload ? upload.blob : upload.sha256);
  if (!file) return failed({ stage: 'parsing', code: 'blob_missing' });
  const t0 = performance.now();
  try {
    const outcome = await parser.parse(
      { documentId: id, path: file.path, fileName: upload.name, chunking: upload.chunking, limits, ocrLanguages: upload.ocr_languages },
      { timeoutMs, onProgress: (done, total) => publishProgress(feed, upload, { stage: 'parsing', pages_parsed: done, page_count: total }) },
    );
    if (!outcome.ok) return failed({ stage: 'parsing', code: outcome.code, detail: outcome.message });
    const { mediaType, pageCount, pageEstimated, ocrPages, warnings } = outcome;
    // Ids by content, so a later version finds the chunks it shares with this one (chunk-identity.ts).
    const chunks = withContentIds(id, outcome.chunks);
    const metadata = commandMetadata(ctx, 'parser');
    // First the attempt's chunks, in their own stream (new: nothing is there to read)…
    const recorded = await handleCommand(
      ctx.store,
      chunkStreamDecider,
      chunkStreamKey(id, attempt),
      { type: 'RecordChunks', data: { document_id: id, knowledge_base_id: upload.knowledge_base_id, attempt, chunks }, metadata },
      { known: { state: chunkStreamDecider.initialState(), revision: -1 } },
    );
    // …then DocumentParsed naming them, on the document's stream as StartParsing left it (read again only if someone wrote since).
    const { batchCount, chunkCount } = recorded.state;
    // …then the attachments' documents, before the parse commits: a crash in between parses again and finds them made…
    // (Attachments are made from a document's first upload only: a later version's are not documents of their own yet.)
    const attached = outcome.attachments?.length && !('version' in upload) ? await addAttachments(deps, upload, outcome.attachments) : { added: [], warnings: [] };
    const parsed = await run(() =>
      handleCommand(
        ctx.store,
        documentDecider,
        id,
        {
          type: 'RecordParse',
          data: {
            document_id: id,
            ...ofVersion,
            attempt,
            media_type: mediaType,
            page_count: pageCount,
            ...(pageEstimated ? { page_estimated: true } : {}),
            chunk_count: chunkCount,
            batch_count: batchCount,
            ocr_pages: ocrPages,
            warnings: [...warnings, ...attached.warnings],
            parse_ms: Math.round(performance.now() - t0),
          },
          metadata,
        },
        { known: started },
      ),
    );
    if (parsed && parsed.events.length > 0) deps.onParsed?.(deps.lane);
    // …and should the email have been deleted meanwhile, its deletion did not see them: they go now.
    if (!parsed && attached.added.length && !('version' in upload)) await dropOrphans(ctx, upload, attached.added);
  } finally {
    await file.release();
  }
}

async function dropOrphans(ctx: AppContext, parent: EventData<'DocumentUploaded'>, added: AddedAttachments['added']) {
  const streamId = documentDecider.streamId(parent.document_id);
  if (foldStream(documentDecider, streamId, await ctx.store.readStream(streamId)).status !== 'deleted') return;
  const metadata = commandMetadata(ctx, 'parser');
  for (const { documentId, sha256 } of added) {
    await deleteDocument(ctx, { documentId, knowledgeBaseId: parent.knowledge_base_id, workspaceId: parent.workspace_id, sha256 }, metadata);
  }
}

/** A document deleted (or otherwise moved on) while we worked is not an error: there is nothing left to do. */
async function run<T>(command: () => Promise<T>): Promise<T | null> {
  try {
    return await command();
  } catch (error) {
    if (error instanceof DomainError) return null;
    throw error;
  }
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
