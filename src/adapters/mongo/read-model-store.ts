import type { ClientSession, IndexDescription } from 'mongodb';
import type { FindQuery, ReadModelStore, ReadModelWrite } from '../../ports/read-models.ts';
import { checkpointsOf, saveCheckpoint } from './checkpoint-store.ts';
import { type ReadModelRow, toBigInt } from './codec.ts';
import type { MongoConnection } from './connection.ts';
import { lazyIndexes } from './lazy-indexes.ts';
import { collectionNameOf, findRequest, whereFilter, writeBatches } from './read-model-queries.ts';

const INDEXES: IndexDescription[] = [
  { key: { 'data.workspace_id': 1, _id: 1 }, name: 'by_workspace' },
  { key: { 'data.knowledge_base_id': 1 }, name: 'by_knowledge_base' },
];

/** One collection per read model of `{ _id, data, position }`; a delete leaves `data: null` so older events cannot resurrect it. */
export function createMongoReadModelStore(conn: MongoConnection): ReadModelStore {
  const { db } = conn;
  const rows = (collection: string) => db.collection<ReadModelRow>(collectionNameOf(collection));
  // Built before a collection's first write and outside the transaction: inside one, an index can
  // only be created on a collection the same transaction creates.
  const ready = new Map<string, () => Promise<void>>();
  const ensureIndexes = (name: string) => {
    let ensure = ready.get(name);
    if (!ensure) ready.set(name, (ensure = lazyIndexes([db.collection(name), INDEXES])));
    return ensure();
  };

  const commit = async (writes: ReadModelWrite[], checkpoint?: { group: string; position: bigint }) => {
    const batches = writeBatches(writes);
    await Promise.all([...batches.keys()].map(ensureIndexes));
    const apply = async (session?: ClientSession) => {
      // Sequential on purpose: operations of one transaction must not run in parallel.
      for (const [name, ops] of batches) await db.collection<ReadModelRow>(name).bulkWrite(ops, { ordered: true, session });
      if (checkpoint) await saveCheckpoint(db, checkpoint.group, checkpoint.position, session);
    };
    if (conn.supportsTransactions && writes.length + (checkpoint ? 1 : 0) > 1) {
      await conn.client.withSession((session) => session.withTransaction(() => apply(session)));
      return;
    }
    // A standalone server has no transactions: the writes land first and the checkpoint last. A
    // crash in between leaves the checkpoint behind, the batch is delivered again, and the position
    // guard turns the writes already applied into no-ops, so the outcome is the same. Only totals
    // (`add`) can drift, if a crash splits them from the write they count: use a replica set.
    await apply();
  };

  return {
    async get<T>(collection: string, id: string) {
      const row = await rows(collection).findOne({ _id: id, data: { $ne: null } }, { projection: { data: 1 } });
      return row ? (row.data as T) : null;
    },
    async getMany<T>(collection: string, ids: readonly string[]) {
      const found = new Map<string, T>();
      if (ids.length === 0) return found;
      const cursor = rows(collection).find({ _id: { $in: [...ids] }, data: { $ne: null } }, { projection: { data: 1 } });
      for await (const row of cursor) found.set(row._id, row.data as T);
      return found;
    },
    async getVersioned<T>(collection: string, id: string) {
      const row = await rows(collection).findOne({ _id: id });
      return row ? { doc: (row.data ?? null) as T | null, position: toBigInt(row.position) } : null;
    },
    async find<T>(collection: string, query: FindQuery = {}) {
      const request = findRequest(query);
      if (!request) return [];
      const found = await rows(collection).find(request.filter, request.options).toArray();
      return found.map((row) => row.data as T);
    },
    async count(collection, where) {
      return rows(collection).countDocuments(whereFilter(where));
    },
    commit,
    async drop(collections, groups = []) {
      // Checkpoints first: if the drop stops half way, the group replays from the start over
      // documents the guard leaves as they are, rather than resuming past events whose documents are gone.
      if (groups.length > 0) await checkpointsOf(db).deleteMany({ _id: { $in: groups } });
      for (const collection of collections) {
        const name = collectionNameOf(collection);
        ready.delete(name);
        await db.collection(name).drop();
      }
    },
    async ping() {
      await db.command({ ping: 1 });
    },
    // The connection belongs to whoever opened it; other stores share it.
    async close() {},
  };
}
