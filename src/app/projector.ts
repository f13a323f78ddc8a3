import type { Projection } from '../../projections/projection.ts';
import type { ConsumerGroup } from '../ports/event-bus.ts';
import type { RecordedEvent } from '../ports/event-store.ts';
import type { ReadModelStore, ReadModelWrite } from '../ports/read-models.ts';
import { createProjectionSession } from './projection-session.ts';

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

/**
 * The consumer group that keeps every read model current; writes and checkpoint commit together.
 * `onCommitted` lets in-process caches of read models drop what the batch changed.
 */
export function projectorGroup(
  projections: readonly Projection[],
  store: ReadModelStore,
  onCommitted: (batch: readonly RecordedEvent[]) => void = () => {},
): ConsumerGroup {
  const { eventTypes, projectionsFor } = indexProjections(projections);
  return {
    name: PROJECTOR_GROUP,
    eventTypes,
    batchSize: 1000,
    async handle(batch) {
      const writes = await projectBatch(batch, projectionsFor, store);
      await store.commit(writes, { group: PROJECTOR_GROUP, position: batch[batch.length - 1]!.position });
      onCommitted(batch);
    },
  };
}
