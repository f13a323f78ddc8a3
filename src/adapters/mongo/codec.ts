import { Long } from 'mongodb';
import type { ParkedEvent } from '../../ports/event-bus.ts';
import { trustedEvent } from '../../../schemas/events/recorded.ts';
import type { StoredEvent } from '../../ports/event-store.ts';

/** Positions come back as numbers when they fit in 53 bits (the driver's `promoteLongs`), as Longs above. */
export type StoredPosition = Long | number;
export type ReadModelRow = { _id: string; data: Record<string, unknown> | null; position: StoredPosition };
export type CheckpointRow = { _id: string; position: StoredPosition };
/** A parked event as a row holds it: as the bus had it, with its position as a decimal string. */
export type ParkedEventRow = Omit<StoredEvent, 'position'> & { position: string };
export type ParkedRow = { group: string; event_id: string; event: ParkedEventRow; error: string; parked_at: string };

const INT64_MAX = (1n << 63n) - 1n;

/** Global positions may pass 2^53, so they are stored as BSON Int64, never as doubles. */
export function toLong(position: bigint): Long {
  if (position < 0n || position > INT64_MAX) throw new RangeError(`position ${position} does not fit a signed 64-bit integer`);
  return Long.fromBigInt(position);
}

export function toBigInt(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (Long.isLong(value)) return value.toBigInt();
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  throw new TypeError(`not an integer position: ${String(value)}`);
}

/**
 * The document as JSON carries it, which is what the SQLite store keeps: both stores hand back the
 * same values, and one JSON cannot hold (a bigint, which BSON would quietly store as Int64) fails
 * the commit before anything is written.
 */
export function asJsonDocument(doc: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;
}

/** Data and metadata are stored as they are (queryable in the shell); the position as a decimal string. */
export function encodeParked({ group, event, error, parkedAt }: ParkedEvent): ParkedRow {
  return { group, event_id: event.id, event: { ...event, position: event.position.toString() }, error, parked_at: parkedAt };
}

export function decodeParked(row: ParkedRow): ParkedEvent {
  const { position, ...event } = row.event;
  // The bus parked one of the events it delivered: one of ours, as the log had it.
  return { group: row.group, event: trustedEvent({ ...event, position: BigInt(position) }), error: row.error, parkedAt: row.parked_at };
}
