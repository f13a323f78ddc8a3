import { documentDecider } from '../domain/document/document.ts';
import type { EventStore } from '../ports/event-store.ts';
import type { PassageDocument, PassageStore } from '../ports/passage-store.ts';
import type { ReadModelStore } from '../ports/read-models.ts';
import { lastParse, readParsedChunks } from './document-chunks.ts';

/** Upgrades done to a data directory (an operational record, not a projection: replay keeps it). */
const UPGRADES = 'upgrades';
const CHUNK_STREAMS = 'chunk_streams';

/** The read model that held a second copy of every chunk until the chunk list read passages. */
const CHUNK_BATCHES = 'chunk_batches';

export type UpgradeReport = { documents: number; skipped: { document: PassageDocument; error: unknown }[] };

/**
 * What a data directory from before chunk streams (issue 13) needs, done once, when a process that
 * indexes opens it. The log keeps its layout (chunk batches in documents' own streams): every
 * reader takes both. The passages the indexer wrote then lack placement (offsets in the page, token
 * count), which the chunk list now reads from them; it comes from the log, from the chunks of each
 * such document's parse. The chunk_batches read model, a copy of every chunk that nothing reads any
 * more, is dropped. A document whose chunks cannot be read is reported and left as it is (its chunk
 * list shows 0 there until `kbqa reindex` writes its passages again). Null when already done.
 */
export async function upgradeToChunkStreams(opts: { store: EventStore; readModels: ReadModelStore; passages: PassageStore; pageSize?: number }): Promise<UpgradeReport | null> {
  const { store, readModels, passages, pageSize = 100 } = opts;
  if (await readModels.get(UPGRADES, CHUNK_STREAMS)) return null;
  const report: UpgradeReport = { documents: 0, skipped: [] };
  for (let after: PassageDocument | null = null; ; ) {
    const page = await passages.unplaced(after, pageSize);
    if (page.length === 0) break;
    for (const document of page) {
      try {
        await placePassages(store, passages, document);
        report.documents += 1;
      } catch (error) {
        report.skipped.push({ document, error });
      }
      after = document;
    }
  }
  await readModels.drop([CHUNK_BATCHES]);
  await readModels.commit([{ op: 'put', collection: UPGRADES, id: CHUNK_STREAMS, doc: { id: CHUNK_STREAMS, passages_placed: report.documents }, position: 1n }]);
  return report;
}

async function placePassages(store: EventStore, passages: PassageStore, { namespace, documentId }: PassageDocument) {
  const lifecycle = await store.readStream(documentDecider.streamId(documentId));
  const parsed = lastParse(lifecycle);
  if (!parsed) throw new Error(`document ${documentId} has passages but no DocumentParsed`);
  const chunks = await readParsedChunks(store, parsed, lifecycle);
  await passages.place(namespace, chunks.map((c) => ({ chunkId: c.chunk_id, charStart: c.char_start, charEnd: c.char_end, tokenCount: c.token_count })));
}
