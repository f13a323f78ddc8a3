import { DEAD_LETTER_HEADER, type DeadLetterMessage, EventMessage, HEADER } from '../../../schemas/topics.ts';
import { parseRecordedEvent } from '../../../schemas/events/recorded.ts';
import { PermanentError } from '../../lib/retry.ts';
import type { RecordedEvent } from '../../ports/event-store.ts';

/** A message on its way to the broker; headers are strings so any client can read them. */
export type OutgoingMessage = { topic: string; key: string; value: string; headers: Record<string, string> };

/** Sends messages in order; resolves only once the broker acknowledged every one of them. */
export interface Publisher {
  publish(messages: readonly OutgoingMessage[]): Promise<void>;
}

/** A message as a consumer receives it (the fields of kafkajs's KafkaMessage this adapter reads). */
export type IncomingMessage = {
  key: Buffer | null;
  value: Buffer | null;
  offset: string;
  headers?: Record<string, Buffer | string | (Buffer | string)[] | undefined>;
};

export function encodeEvent(event: RecordedEvent, topic: string): OutgoingMessage {
  return { topic, key: event.streamId, value: JSON.stringify(toEventMessage(event)), headers: eventHeaders(event) };
}

/** Where a dead letter came from and why: group, topic, partition, offset, error, parkedAt. */
export type DeadLetterSource = Omit<DeadLetterMessage, 'event' | 'raw'>;
export type DeadLetter = DeadLetterSource & { event: RecordedEvent };

export function encodeDeadLetter(letter: DeadLetter, topic: string): OutgoingMessage {
  const value: DeadLetterMessage = { ...letter, event: toEventMessage(letter.event) };
  return { topic, key: letter.event.streamId, value: JSON.stringify(value), headers: eventHeaders(letter.event) };
}

/**
 * A dead letter for a message that could not be read: its bytes travel as they were (the value as
 * base64, since it may not even be text), under its own key and headers plus the error, so it can
 * be inspected or republished as is. A message without a key goes out with an empty one (the
 * publisher takes strings); `raw.key` keeps the null.
 */
export function encodeUnreadableDeadLetter(letter: DeadLetterSource, message: IncomingMessage, topic: string): OutgoingMessage {
  const key = message.key?.toString('utf8') ?? null;
  const headers = plainHeaders(message);
  const value: DeadLetterMessage = { ...letter, raw: { key, value: message.value?.toString('base64') ?? null, headers } };
  return { topic, key: key ?? '', value: JSON.stringify(value), headers: { ...headers, [DEAD_LETTER_HEADER.error]: letter.error } };
}

/** The event type from the headers, so a group can pass over what it does not handle without parsing the value. */
export function eventTypeOf(message: IncomingMessage): string | undefined {
  return header(message, HEADER.eventType);
}

/**
 * The recorded event a message carries, its data parsed by its type's schema in the catalog.
 * Anything off the contract (no value, bad JSON, a value that fails the schema, a type the catalog
 * does not know, headers or key that disagree with it) is a PermanentError: no retry can make it
 * readable.
 */
export function decodeEvent(message: IncomingMessage): RecordedEvent {
  if (!message.value) throw malformed(message, 'it has no value');
  let json: unknown;
  try {
    json = JSON.parse(message.value.toString('utf8'));
  } catch {
    throw malformed(message, 'its value is not JSON');
  }
  const parsed = EventMessage.safeParse(json);
  if (!parsed.success) throw malformed(message, `its value is not an EventMessage (${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')})`);
  const value = parsed.data;
  const expected = { [HEADER.eventType]: value.type, [HEADER.eventId]: value.id, [HEADER.schemaVersion]: String(value.metadata.schemaVersion) };
  for (const [name, want] of Object.entries(expected)) {
    const got = header(message, name);
    if (got !== want) throw malformed(message, `header ${name} is ${got === undefined ? 'missing' : `'${got}'`}, the value says '${want}'`);
  }
  const key = message.key?.toString('utf8');
  if (key !== value.streamId) throw malformed(message, `its key '${key ?? ''}' is not the stream id '${value.streamId}'`);
  const { position, ...rest } = value;
  const recorded = parseRecordedEvent({ ...rest, position: BigInt(position) });
  if (!recorded.ok) throw malformed(message, recorded.problem);
  return recorded.event;
}

function toEventMessage(event: RecordedEvent): EventMessage {
  const { id, type, streamId, revision, position, data, metadata, recordedAt } = event;
  return { id, type, streamId, revision, position: position.toString(), data, metadata, recordedAt };
}

function eventHeaders(event: RecordedEvent): Record<string, string> {
  const version = documentVersionOf(event);
  return {
    [HEADER.eventType]: event.type,
    [HEADER.eventId]: event.id,
    [HEADER.schemaVersion]: String(event.metadata.schemaVersion),
    ...(version !== null && { [HEADER.documentVersion]: String(version) }),
  };
}

/** The document version an event of a document's stream is about (see HEADER.documentVersion); null for other streams. */
function documentVersionOf(event: RecordedEvent): number | null {
  if (!event.streamId.startsWith('document-')) return null;
  if (event.type === 'DocumentVersionSuperseded') return event.data.superseded_by;
  return 'version' in event.data && typeof event.data.version === 'number' ? event.data.version : 1;
}

/** Every header as a string; of a repeated one the last value, as Kafka's own clients read it (`lastHeader`). */
function plainHeaders(message: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, raw] of Object.entries(message.headers ?? {})) {
    const last = Array.isArray(raw) ? raw.at(-1) : raw;
    if (last !== undefined) headers[name] = last.toString();
  }
  return headers;
}

/** A header repeated with different values is as unreadable as a missing one. */
function header(message: IncomingMessage, name: string): string | undefined {
  const raw = message.headers?.[name];
  const values = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map((v) => v.toString());
  return values.length > 0 && values.every((v) => v === values[0]) ? values[0] : undefined;
}

function malformed(message: IncomingMessage, why: string) {
  return new PermanentError(`malformed message at offset ${message.offset}: ${why}`);
}
