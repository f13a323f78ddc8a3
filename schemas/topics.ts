import { z } from 'zod';
import { eventCatalog, type EventType } from './events/index.ts';

/**
 * The Kafka contract with downstream systems: one topic per stream category, keyed by stream id
 * (so each document's and run's events stay in order within one partition), with the event type,
 * id and schema version in headers so a subscriber can route without parsing the value.
 */
export const TOPIC_PREFIX = 'kbqa.';
export const DEAD_LETTER_TOPIC = 'kbqa.dead-letter';

export type StreamCategory = (typeof eventCatalog)[EventType]['category'];

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

/** The value of a message on kbqa.dead-letter: what failed for good, where it came from, and why. */
export const DeadLetterMessage = z
  .object({
    group: z.string().min(1),
    topic: z.string().min(1),
    partition: z.number().int().min(0),
    offset: z.string().regex(/^\d+$/),
    error: z.string(),
    parkedAt: z.string(),
    event: EventMessage,
  })
  .meta({ title: 'DeadLetterMessage', description: 'The value of a message on kbqa.dead-letter' });

export type DeadLetterMessage = z.infer<typeof DeadLetterMessage>;
