import type { ClientSession, Db } from 'mongodb';
import type { CheckpointStore } from '../../ports/event-bus.ts';
import { type CheckpointRow, decodeParked, encodeParked, type ParkedRow, toBigInt } from './codec.ts';
import type { MongoConnection } from './connection.ts';
import { lazyIndexes } from './lazy-indexes.ts';
import { checkpointAdvance } from './read-model-queries.ts';

export const checkpointsOf = (db: Db) => db.collection<CheckpointRow>('checkpoints');

/** Shared with the read-model commit, which saves its checkpoint inside the same transaction as its writes. */
export async function saveCheckpoint(db: Db, group: string, position: bigint, session?: ClientSession): Promise<void> {
  await checkpointsOf(db).updateOne({ _id: group }, checkpointAdvance(position), { upsert: true, session });
}

export function createMongoCheckpointStore(conn: MongoConnection): CheckpointStore {
  const { db } = conn;
  const parked = db.collection<ParkedRow>('parked_events');
  const ensureIndex = lazyIndexes([parked, [{ key: { group: 1, event_id: 1 }, name: 'by_group_event', unique: true }]]);

  return {
    async load(group) {
      const row = await checkpointsOf(db).findOne({ _id: group });
      return row ? toBigInt(row.position) : 0n;
    },
    async save(group, position) {
      await saveCheckpoint(db, group, position);
    },
    async park(entry) {
      await ensureIndex();
      const { group, event_id, ...rest } = encodeParked(entry);
      // A redelivered poison event keeps its first entry, as SQLite's INSERT OR IGNORE does.
      await parked.updateOne({ group, event_id }, { $setOnInsert: rest }, { upsert: true });
    },
    async parked(group) {
      // The server-made ObjectId breaks ties between entries parked in the same millisecond.
      const rows = await parked.find({ group }, { sort: { parked_at: 1, _id: 1 }, projection: { _id: 0 } }).toArray();
      return rows.map(decodeParked);
    },
  };
}
