import type { AnyBulkWriteOperation, Db } from 'mongodb';
import type { Passage, PassageStore } from '../../ports/passage-store.ts';
import { lazyIndexes } from './lazy-indexes.ts';

type PassageDoc = Passage & { namespace: string };

/** One document per chunk, keyed by (namespace, chunk id); a lookup of the top k is one indexed query. */
export function createMongoPassageStore(db: Db): PassageStore {
  const passages = db.collection<PassageDoc>('passages');
  const ready = lazyIndexes([
    passages,
    [
      { key: { namespace: 1, chunkId: 1 }, name: 'namespace_chunk', unique: true },
      { key: { namespace: 1, documentId: 1 }, name: 'namespace_document' },
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
    async deleteByDocument(namespace, documentId) {
      await ready();
      await passages.deleteMany({ namespace, documentId });
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
const fields = (p: Passage): Passage => ({
  chunkId: p.chunkId,
  documentId: p.documentId,
  documentName: p.documentName ?? null,
  index: p.index,
  page: p.page,
  headingPath: p.headingPath,
  text: p.text,
});
