import type { AnyBulkWriteOperation, Document, Filter, FindOptions } from 'mongodb';
import type { FindQuery, ReadModelWrite } from '../../ports/read-models.ts';
import { asJsonDocument, type ReadModelRow, toLong } from './codec.ts';

const FIELD = /^[a-z_][a-z0-9_]*$/i;

/** Read-model collections share the database with GridFS, checkpoints and the indexes, hence the prefix. */
export const collectionNameOf = (collection: string) => `rm_${collection}`;

/** Field names reach query paths and pipeline expressions, so only plain identifiers pass (no `$`, no dots). */
function dataPath(field: string): string {
  if (!FIELD.test(field)) throw new Error(`unsupported field name ${field}`);
  return `data.${field}`;
}

/**
 * An upsert whose pipeline applies the write only when it is newer than what the document has
 * seen. The guard lives in the update, not the filter, so a stale write matches, changes nothing
 * and raises nothing: a filtered upsert would try an insert, hit the duplicate _id and abort the
 * transaction around it. Both fields of the `$set` read the document as it was before the stage.
 * On insert the pipeline starts from `{ _id }`: the missing `position` sorts below every number,
 * so `$lt` lets the write in, and `$max` ignores it.
 */
export function guardedWrite(write: Exclude<ReadModelWrite, { op: 'add' }>): Document[] {
  const position = toLong(write.position);
  const data = write.op === 'put' ? asJsonDocument(write.doc) : null;
  return [
    {
      $set: {
        data: { $cond: [{ $lt: ['$position', position] }, { $literal: data }, '$data'] },
        position: { $max: ['$position', position] },
      },
    },
  ];
}

/** Adds to fields of `data`, creating the document at position 0: totals need no guard (see ReadModelWrite). */
export function addition(fields: Record<string, number>): Document {
  const inc: Document = {};
  for (const [field, amount] of Object.entries(fields)) inc[dataPath(field)] = amount;
  return { $inc: inc, $setOnInsert: { position: toLong(0n) } };
}

/** A checkpoint moves forward only, under the same guard as the documents. */
export function checkpointAdvance(position: bigint): Document[] {
  return [{ $set: { position: { $max: ['$position', toLong(position)] } } }];
}

/**
 * The writes as one ordered bulk per Mongo collection, keeping their order within each (two writes
 * to one document apply in sequence). Every document is encoded here, before any I/O.
 */
export function writeBatches(writes: readonly ReadModelWrite[]): Map<string, AnyBulkWriteOperation<ReadModelRow>[]> {
  const batches = new Map<string, AnyBulkWriteOperation<ReadModelRow>[]>();
  for (const write of writes) {
    const name = collectionNameOf(write.collection);
    const ops = batches.get(name) ?? [];
    ops.push({ updateOne: { filter: { _id: write.id }, update: write.op === 'add' ? addition(write.fields) : guardedWrite(write), upsert: true } });
    batches.set(name, ops);
  }
  return batches;
}

/** Live documents (tombstones keep `data: null`) with these field values; `null` matches null or absent, as in SQLite. */
export function whereFilter(where: FindQuery['where'] = {}): Filter<ReadModelRow> {
  const filter: Document = { data: { $ne: null } };
  for (const [field, value] of Object.entries(where)) filter[dataPath(field)] = value;
  return filter;
}

/** The find for a query, or null when it asks for no rows (Mongo reads `limit: 0` as no limit). */
export function findRequest(query: FindQuery): { filter: Filter<ReadModelRow>; options: FindOptions } | null {
  if (query.limit === 0) return null;
  const ascending = query.order === 'asc';
  const filter = whereFilter(query.where);
  if (query.after !== undefined) filter._id = ascending ? { $gt: query.after } : { $lt: query.after };
  const options: FindOptions = { sort: { _id: ascending ? 1 : -1 }, projection: { _id: 0, data: 1 } };
  if (query.limit !== undefined && query.limit > 0) options.limit = query.limit;
  return { filter, options };
}
