import {
  ANY,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type AppendExpectedRevision,
  CancelledError,
  type CurrentRevision,
  DeadlineExceededError,
  type EventData,
  type Filter,
  type JSONType,
  NO_STREAM,
  NotLeaderError,
  type Position,
  type ReadPosition,
  type ResolvedEvent,
  START,
  STREAM_EXISTS,
  TimeoutError,
  UnavailableError,
  UnknownError,
  WrongExpectedVersionError,
  convertToCommandError,
  eventTypeFilter,
  excludeSystemEvents,
  isCommandError,
} from '@eventstore/db-client';
import { trustedEvent } from '../../../schemas/events/recorded.ts';
import { PermanentError } from '../../lib/retry.ts';
import { ConcurrencyError, type EventMetadata, type ExpectedRevision, type NewEvent, type RecordedEvent } from '../../ports/event-store.ts';

/** What servers older than 22.6 put in a stream read's position fields (-1 as an unsigned 64-bit number). */
export const ESDB_NO_POSITION = 2n ** 64n - 1n;

/**
 * Our global position is the ESDB commit position. Events appended over gRPC are never in an
 * explicit transaction, so their prepare position equals their commit position and one bigint
 * round-trips. 0n (before everything) is the start of $all.
 */
export function toEsdbPosition(position: bigint): ReadPosition {
  return position <= 0n ? START : { commit: position, prepare: position };
}

/** The commit position, or undefined when the server did not give a real one (stream reads before 22.6). */
export function knownCommit(position: Position | bigint | undefined): bigint | undefined {
  const commit = typeof position === 'bigint' ? position : position?.commit;
  // No event sits at 0 (the log opens with an epoch record), so 0 is an unset protobuf field.
  return commit === undefined || commit <= 0n || commit >= ESDB_NO_POSITION ? undefined : commit;
}

export function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      if (!Number.isSafeInteger(expected) || expected < 0) throw new RangeError(`expected revision must be a revision number, got ${expected}`);
      return BigInt(expected);
  }
}

export function fromCurrentRevision(actual: CurrentRevision): number | 'no_stream' {
  return actual === NO_STREAM || actual < 0n ? 'no_stream' : Number(actual);
}

export function toEventData(event: NewEvent): EventData {
  return {
    id: event.id,
    contentType: 'application/json',
    type: event.type,
    // The port types data as unknown; every event reaching here passed its zod schema, so it is JSON.
    // eslint-disable-next-line no-restricted-syntax -- the client's name for any JSON: the data was checked against its schema when appended.
    data: event.data as JSONType,
    metadata: event.metadata,
  };
}

const isSystemName = (name: string) => name.startsWith('$');

function isOurMetadata(metadata: unknown): metadata is EventMetadata {
  return typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) && !(metadata instanceof Uint8Array) && typeof (metadata as EventMetadata).schemaVersion === 'number';
}

/**
 * One of our events as the port shapes it, or null for what the log holds besides ours: system
 * events and streams, links, binary events, JSON written by others (no schemaVersion).
 */
export function toRecordedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | null {
  const event = resolved.event;
  if (!event || !event.isJson || isSystemName(event.type) || isSystemName(event.streamId) || !isOurMetadata(event.metadata)) return null;
  const position = knownCommit(event.position) ?? knownCommit(resolved.commitPosition);
  if (position === undefined) {
    // Servers before 22.6 leave $all positions out of stream reads; inventing one would break
    // every position guard downstream, so refuse instead.
    throw new PermanentError(`EventStoreDB gave no $all position for ${event.streamId}@${event.revision}: stream reads carry it from server 22.6 on`);
  }
  // Ours by its metadata, so the command shell parsed its data by the catalog before appending it.
  return trustedEvent({
    id: event.id,
    type: event.type,
    streamId: event.streamId,
    revision: Number(event.revision),
    position,
    data: event.data,
    metadata: event.metadata,
    recordedAt: event.created.toISOString(),
  });
}

/** The commit position of an event read from $all (always present there). */
export function allPositionOf(resolved: AllStreamResolvedEvent): bigint {
  const position = knownCommit(resolved.event?.position) ?? knownCommit(resolved.commitPosition);
  if (position === undefined) throw new Error('EventStoreDB sent an event from $all without a position');
  return position;
}

// Some calls (the server-feature lookup before an append) reject with the raw gRPC error.
const isServiceError = (error: unknown): error is Error & { code: number; details: string } =>
  error instanceof Error && typeof (error as { code?: unknown }).code === 'number' && typeof (error as { details?: unknown }).details === 'string';
const asClientError = (error: unknown) => (isServiceError(error) ? convertToCommandError(error) : error);

export type ErrorClass = 'concurrency' | 'transient' | 'permanent';

// The server may answer differently next time: it is restarting, electing a leader, or slow.
const transientErrors = [UnavailableError, DeadlineExceededError, TimeoutError, NotLeaderError, CancelledError, UnknownError];

/**
 * Other client errors (access denied, stream deleted, append too large, invalid argument,
 * unsupported) fail the same way on every attempt. Errors not from the client (connection set-up,
 * discovery) are taken as transient: a server that is down may come back.
 */
export function classifyError(thrown: unknown): ErrorClass {
  const error = asClientError(thrown);
  if (error instanceof WrongExpectedVersionError || error instanceof ConcurrencyError) return 'concurrency';
  if (transientErrors.some((kind) => error instanceof kind)) return 'transient';
  if (error instanceof PermanentError || (error instanceof Error && isCommandError(error))) return 'permanent';
  return 'transient';
}

/**
 * The error callers see: ConcurrencyError when an append's expectation failed, PermanentError (so
 * consumers park at once instead of retrying) for what no retry fixes, anything else as the
 * client's own error class (a raw gRPC error converted).
 */
export function toStoreError(thrown: unknown, append?: { streamId: string; expected: ExpectedRevision }): unknown {
  const error = asClientError(thrown);
  if (append && error instanceof WrongExpectedVersionError) return new ConcurrencyError(append.streamId, append.expected, fromCurrentRevision(error.actualVersion));
  if (classifyError(error) !== 'permanent' || error instanceof PermanentError) return error;
  const { type, message } = error as Error & { type?: string };
  return new PermanentError(`EventStoreDB: ${message || type || 'request failed'}`, { cause: error });
}

/** A .NET-compatible regex matching exactly these event types: every character outside [A-Za-z0-9_] becomes \uXXXX. */
export function eventTypeRegex(types: Iterable<string>): string {
  const escape = (type: string) => type.replace(/[^A-Za-z0-9_]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `^(?:${[...types].sort().map(escape).join('|')})$`;
}

/**
 * The server-side filter of a subscription: only these types, or everything but system events.
 * The server reports a checkpoint every checkpointInterval × maxSearchWindow events it examined
 * (matching or not), which lets a checkpoint pass over what the filter left out.
 */
export function subscriptionFilter(
  eventTypes: ReadonlySet<string> | undefined,
  checkpointReached: (subscription: AllStreamSubscription, position: Position) => void,
): Filter {
  return eventTypes ? eventTypeFilter({ regex: eventTypeRegex(eventTypes), checkpointInterval: 1, checkpointReached }) : excludeSystemEvents({ checkpointInterval: 1, checkpointReached });
}

/**
 * Whether a server checkpoint may become `upTo`: only when the event at exactly that position
 * exists and is one the subscription does not deliver. Some servers sent checkpoints at the end of
 * the log, where the next append then landed (KurrentDB #4970), or ahead of events still to come
 * when going live (fixed in 23.10); resuming after such a position would skip an event.
 */
export function checkpointHolds(checkpoint: bigint, eventThere: { position: bigint; wanted: boolean } | undefined): boolean {
  return eventThere !== undefined && eventThere.position === checkpoint && !eventThere.wanted;
}

/**
 * How far a filtered subscription has read once it is idle: the log after `after` as a probe found
 * it, up to (not including) the first event the subscription will deliver itself.
 */
export function readThroughAfterProbe(after: bigint, probed: readonly { position: bigint; wanted: boolean }[]): bigint {
  let through = after;
  for (const { position, wanted } of probed) {
    if (position <= after) continue;
    if (wanted) break;
    through = position;
  }
  return through;
}
