import { z } from 'zod';
import { eventCatalog } from './events/index.ts';

/**
 * The Kafka contract with downstream systems: one topic per stream category, keyed by stream id
 * (so each document's and run's events stay in order within one partition), with the event type,
 * id and schema version in headers so a subscriber can route without parsing the value.
 */
export const TOPIC_PREFIX = 'kbqa.';
export const DEAD_LETTER_TOPIC = 'kbqa.dead-letter';

/** `knowledge_base` → `kbqa.knowledge-base`. */
export function topicOfCategory(category: string): string {
  return `${TOPIC_PREFIX}${category.replaceAll('_', '-')}`;
}

/** A stream id is `<category>-<id>`; categories never contain a hyphen, ids may. */
export function categoryOfStream(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash > 0 ? streamId.slice(0, dash) : streamId;
}

export const topicOfStream = (streamId: string) => topicOfCategory(categoryOfStream(streamId));

/** Every topic the relay writes, in catalog order. */
export const EVENT_TOPICS: readonly string[] = [...new Set(Object.values(eventCatalog).map((e) => topicOfCategory(e.category)))];

/** The topics that carry these event types (a consumer group subscribes to just those). */
export function topicsForEventTypes(types: Iterable<string>): string[] {
  const topics = new Set<string>();
  for (const type of types) {
    const entry = (eventCatalog as Record<string, { category: string } | undefined>)[type];
    if (entry) topics.add(topicOfCategory(entry.category));
  }
  return [...topics].sort();
}

export const HEADER = {
  eventType: 'kbqa-event-type',
  eventId: 'kbqa-event-id',
  schemaVersion: 'kbqa-schema-version',
  /**
   * On the events of a document's stream (issue 44): the version the event is about (1 for
   * DocumentUploaded and events without a version field; a supersede's new version), so a
   * consumer can route or filter by version without parsing the value.
   */
  documentVersion: 'kbqa-document-version',
} as const;

/** The value of every message on an event topic: the recorded event, position as a decimal string. */
export const EventMessage = z
  .object({
    id: z.string().min(1),
    type: z.string().min(1),
    streamId: z.string().min(1),
    revision: z.number().int().min(0),
    position: z.string().regex(/^\d+$/, 'a non-negative integer as a decimal string'),
    data: z.record(z.string(), z.unknown()),
    metadata: z.object({ schemaVersion: z.number().int().min(1) }).catchall(z.unknown()),
    recordedAt: z.string(),
  })
  .meta({ title: 'EventMessage', description: 'The value of a message on a kbqa.<category> topic' });

export type EventMessage = z.infer<typeof EventMessage>;

/** Where a dead letter came from and why it was parked: common to both of its forms. */
const deadLetterSource = {
  group: z.string().min(1),
  topic: z.string().min(1),
  partition: z.number().int().min(0),
  offset: z.string().regex(/^\d+$/),
  error: z.string(),
  parkedAt: z.string(),
};

/** A message as it was on its topic, for one that could not be read as an EventMessage. */
export const RawMessage = z
  .object({
    key: z.string().nullable(),
    value: z.base64().nullable(),
    headers: z.record(z.string(), z.string()),
  })
  .meta({ title: 'RawMessage', description: 'The key (UTF-8) and headers of the message, and its value as base64 of its bytes' });

export type RawMessage = z.infer<typeof RawMessage>;

/**
 * The value of a message on kbqa.dead-letter: what failed for good, where it came from, and why.
 * It carries the event a group could not handle or, for a message that could not even be read,
 * the raw message: exactly one of them. The absent one is `never` (not just left out) because an
 * object admits unknown keys, and a letter carrying both must fail in JSON Schema too.
 */
export const DeadLetterMessage = z
  .xor([
    z.object({ ...deadLetterSource, event: EventMessage, raw: z.never().optional() }).meta({ title: 'EventDeadLetter' }),
    z.object({ ...deadLetterSource, raw: RawMessage, event: z.never().optional() }).meta({ title: 'UnreadableDeadLetter' }),
  ])
  .meta({ title: 'DeadLetterMessage', description: 'The value of a message on kbqa.dead-letter' });

export type DeadLetterMessage = z.infer<typeof DeadLetterMessage>;

/** Headers a dead letter adds to those of the message it parks. */
export const DEAD_LETTER_HEADER = { error: 'kbqa-dead-letter-error' } as const;
