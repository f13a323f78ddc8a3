import type { AnyBulkWriteOperation, Db } from 'mongodb';
import type { Passage, PassageDocument, PassageStore } from '../../ports/passage-store.ts';
import { lazyIndexes } from './lazy-indexes.ts';

type PassageDoc = Passage & { namespace: string };
type StoredPassage = Omit<Passage, 'charStart' | 'charEnd' | 'tokenCount'> & Partial<Passage>;

/** One document per chunk, keyed by (namespace, chunk id); a lookup of the top k is one indexed query. */
export function createMongoPassageStore(db: Db): PassageStore {
  const passages = db.collection<PassageDoc>('passages');
  const ready = lazyIndexes([
    passages,
    [
      { key: { namespace: 1, chunkId: 1 }, name: 'namespace_chunk', unique: true },
      { key: { namespace: 1, documentId: 1 }, name: 'namespace_document' },
      { key: { namespace: 1, documentId: 1, index: 1 }, name: 'namespace_document_index' },
    ],
  ]);

  return {
    async upsert(namespace, batch) {
      if (batch.length === 0) return;
      await ready();
      const writes = batch.map(
        (p): AnyBulkWriteOperation<PassageDoc> => ({
          replaceOne: { filter: { namespace, chunkId: p.chunkId }, replacement: { namespace, ...fields(p) }, upsert: true },
        }),
      );
      // Ordered, so a chunk given twice in one batch ends as its last version, as in SQLite.
      await passages.bulkWrite(writes, { ordered: true });
    },
    async get(namespace, chunkIds) {
      const found = new Map<string, Passage>();
      if (chunkIds.length === 0) return found;
      await ready();
      const docs = passages.find({ namespace, chunkId: { $in: [...chunkIds] } }, { projection: { _id: 0, namespace: 0 } });
      for await (const doc of docs) found.set(doc.chunkId, fields(doc));
      return found;
    },
    async listByDocument(namespace, documentId, { after = -1, limit }) {
      await ready();
      const docs = await passages
        .find({ namespace, documentId, index: { $gt: after } }, { projection: { _id: 0, namespace: 0 } })
        .sort({ index: 1 })
        .limit(limit)
        .toArray();
      return docs.map(fields);
    },
    async unplaced(after, limit) {
      await ready();
      // Passages written before placement existed lack tokenCount (a scan: the fill on open runs it until it finds none).
      const from = after ? { $or: [{ namespace: { $gt: after.namespace } }, { namespace: after.namespace, documentId: { $gt: after.documentId } }] } : {};
      const found = await passages
        .aggregate<{ _id: PassageDocument }>([
          { $match: { tokenCount: { $exists: false }, ...from } },
          { $group: { _id: { namespace: '$namespace', documentId: '$documentId' } } },
          { $sort: { '_id.namespace': 1, '_id.documentId': 1 } },
          { $limit: limit },
        ])
        .toArray();
      return found.map((d) => ({ namespace: d._id.namespace, documentId: d._id.documentId }));
    },
    async place(namespace, placements) {
      if (placements.length === 0) return;
      await ready();
      const writes = placements.map(
        ({ chunkId, charStart, charEnd, tokenCount }): AnyBulkWriteOperation<PassageDoc> => ({
          updateOne: { filter: { namespace, chunkId }, update: { $set: { charStart, charEnd, tokenCount } } },
        }),
      );
      await passages.bulkWrite(writes, { ordered: false });
    },
    async deleteByDocument(namespace, documentId) {
      await ready();
      await passages.deleteMany({ namespace, documentId });
    },
    async deleteChunks(namespace, chunkIds) {
      if (chunkIds.length === 0) return;
      await ready();
      await passages.deleteMany({ namespace, chunkId: { $in: [...chunkIds] } });
    },
    async deleteNamespace(namespace) {
      await ready();
      await passages.deleteMany({ namespace });
    },
    async count(namespace) {
      await ready();
      return passages.countDocuments({ namespace });
    },
    async ping() {
      await db.command({ ping: 1 });
    },
  };
}

/** Exactly the port's fields, whatever else a stored document carries; documents from before names were kept have none. */
const fields = (p: StoredPassage): Passage => ({
  chunkId: p.chunkId,
  documentId: p.documentId,
  documentName: p.documentName ?? null,
  index: p.index,
  page: p.page,
  headingPath: p.headingPath,
  text: p.text,
  // Absent from passages written before placement existed, until `place` sets it.
  charStart: p.charStart ?? 0,
  charEnd: p.charEnd ?? 0,
  tokenCount: p.tokenCount ?? 0,
  ...(p.boxes && { boxes: p.boxes }),
  ...(p.firstVersion !== undefined && { firstVersion: p.firstVersion }),
  ...(p.lastVersion !== undefined && { lastVersion: p.lastVersion }),
});
