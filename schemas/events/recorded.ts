import { type EventData, type EventType, isKnownEventType, safeParseEventData } from './index.ts';

export type EventMetadata = {
  schemaVersion: number;
  correlationId?: string;
  causationId?: string;
  actor?: string;
  [key: string]: unknown;
};

/** The envelope every stored event travels in, whatever its type. */
type Envelope = {
  id: string;
  streamId: string;
  /** 0-based index of the event within its stream. */
  revision: number;
  /** Position in the global log (1-based, gaps allowed, never reused). */
  position: bigint;
  metadata: EventMetadata;
  recordedAt: string;
};

/**
 * A stored event of one of the catalog's types `T` (all of them by default): a union with one
 * member per type, so `switch (event.type)` narrows `event.data` to that type's schema.
 */
export type RecordedEvent<T extends EventType = EventType> = { [K in T]: Envelope & { type: K; data: EventData<K> } }[T];

/** An event as a store reads it back, before its type is tied to the catalog. */
export type StoredEvent = Envelope & { type: string; data: unknown };

/**
 * An event this service wrote itself: the command shell parsed its data by the catalog's schema
 * before the append, so a store returns it as it reads it, without parsing again. This is the one
 * place where a stored event's type is asserted rather than checked.
 */
export function trustedEvent(stored: StoredEvent): RecordedEvent {
  return stored as RecordedEvent;
}

/** An event from outside (a Kafka message, say): its type must be in the catalog and its data must pass its schema. */
export function parseRecordedEvent(stored: StoredEvent): { ok: true; event: RecordedEvent } | { ok: false; problem: string } {
  const { type } = stored;
  if (!isKnownEventType(type)) return { ok: false, problem: `event type '${type}' is not in the catalog` };
  return withParsedData(stored, type);
}

function withParsedData<T extends EventType>(stored: StoredEvent, type: T): { ok: true; event: RecordedEvent<T> } | { ok: false; problem: string } {
  const parsed = safeParseEventData(type, stored.data);
  if (!parsed.success) return { ok: false, problem: `its data is not a ${type} (${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')})` };
  return { ok: true, event: { ...stored, type, data: parsed.data } };
}

/**
 * Whether `event` is of one of `types`: how a handler of some event types (a projection, a
 * consumer) gets its own events, typed, out of the log.
 */
export function hasType<T extends EventType>(types: ReadonlySet<T>, event: RecordedEvent): event is RecordedEvent & RecordedEvent<T> {
  return (types as ReadonlySet<string>).has(event.type);
}
