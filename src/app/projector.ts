import type { Projection } from '../../projections/projection.ts';
import { eventCatalog } from '../../schemas/events/index.ts';
import type { ConsumerGroup } from '../ports/event-bus.ts';
import type { RecordedEvent } from '../ports/event-store.ts';
import type { ReadModelStore, ReadModelWrite } from '../ports/read-models.ts';
import { createProjectionSession } from './projection-session.ts';
import { STREAM_POSITIONS } from './projection-watch.ts';

export const PROJECTOR_GROUP = 'projector';

/** Folds one batch into read-model writes, loading each touched document from the store once. */
export async function projectBatch(
  batch: readonly RecordedEvent[],
  projectionsFor: (type: string) => readonly Projection[],
  store: ReadModelStore,
): Promise<ReadModelWrite[]> {
  const session = createProjectionSession(projectionsFor, (collection, id) => store.getVersioned(collection, id));
  await session.apply(batch);
  return session.drain();
}

export function indexProjections(projections: readonly Projection[]) {
  const byType = new Map<string, Projection[]>();
  for (const p of projections) for (const t of p.eventTypes) byType.set(t, [...(byType.get(t) ?? []), p]);
  return { eventTypes: new Set(byType.keys()), projectionsFor: (type: string) => byType.get(type) ?? [] };
}

/** Notes the last position of each stream among `events`. */
export function noteStreamPositions(events: readonly RecordedEvent[], last: Map<string, bigint> = new Map()): Map<string, bigint> {
  for (const event of events) if (event.position > (last.get(event.streamId) ?? 0n)) last.set(event.streamId, event.position);
  return last;
}

/** Those positions as writes to STREAM_POSITIONS (position-guarded like any read model). */
export function streamPositionWrites(last: ReadonlyMap<string, bigint>): ReadModelWrite[] {
  return [...last].map(([streamId, position]) => ({ op: 'put', collection: STREAM_POSITIONS, id: streamId, doc: { position: String(position) }, position }));
}

export type ProjectorOptions = {
  /** Lets in-process caches of read models drop what the batch changed, and live feeds announce it. */
  onCommitted?: (batch: readonly RecordedEvent[]) => void;
  /**
   * Record every stream's applied position (see STREAM_POSITIONS). Then the group takes every
   * event type of a tracked stream (TRACKED_TYPES), so a stream whose last event no projection
   * uses still reports its position.
   */
  trackStreams?: boolean;
};

/**
 * Streams whose position nobody waits for: a parse's chunk batches (a reader waits for the
 * DocumentParsed that commits them, and no read model holds them), which a tracking projector would
 * otherwise read from Kafka, megabytes of text, only to note positions.
 */
const UNTRACKED_CATEGORIES: ReadonlySet<string> = new Set(['document_chunks']);

/** The event types a projector that tracks streams takes. */
const TRACKED_TYPES: ReadonlySet<string> = new Set(
  Object.entries(eventCatalog)
    .filter(([, entry]) => !UNTRACKED_CATEGORIES.has(entry.category))
    .map(([type]) => type),
);

/** The consumer group that keeps every read model current; writes and checkpoint commit together. */
export function projectorGroup(projections: readonly Projection[], store: ReadModelStore, options: ProjectorOptions = {}): ConsumerGroup {
  const { eventTypes, projectionsFor } = indexProjections(projections);
  const { onCommitted = () => {}, trackStreams = false } = options;
  return {
    name: PROJECTOR_GROUP,
    eventTypes: trackStreams ? TRACKED_TYPES : eventTypes,
    batchSize: 1000,
    async handle(batch) {
      const writes = await projectBatch(batch, projectionsFor, store);
      if (trackStreams) writes.push(...streamPositionWrites(noteStreamPositions(batch)));
      await store.commit(writes, { group: PROJECTOR_GROUP, position: batch[batch.length - 1]!.position });
      onCommitted(batch);
    },
  };
}
