import type { Projection } from '../../projections/projection.ts';
import type { ConsumerGroup } from '../ports/event-bus.ts';
import type { RecordedEvent } from '../ports/event-store.ts';
import type { ReadModelStore, ReadModelWrite } from '../ports/read-models.ts';

export const PROJECTOR_GROUP = 'projector';

type Slot = { doc: Record<string, unknown> | null; position: bigint };

/**
 * Folds a batch of events into read-model writes. An event at or below a document's position was
 * already applied (a redelivery or an overlapping replay) and is skipped, so applying twice is a no-op.
 */
export async function projectBatch(
  batch: readonly RecordedEvent[],
  projectionsFor: (type: string) => readonly Projection[],
  store: ReadModelStore,
): Promise<ReadModelWrite[]> {
  const slots = new Map<string, Slot & { collection: string; id: string; dirty: boolean }>();
  for (const event of batch) {
    for (const projection of projectionsFor(event.type)) {
      const id = projection.idOf(event);
      if (id === null) continue;
      const key = `${projection.collection}\u0000${id}`;
      let slot = slots.get(key);
      if (!slot) {
        const stored = await store.getVersioned(projection.collection, id);
        slot = { collection: projection.collection, id, doc: stored?.doc ?? null, position: stored?.position ?? 0n, dirty: false };
        slots.set(key, slot);
      }
      if (event.position <= slot.position) continue;
      slot.doc = projection.evolve(slot.doc, event);
      slot.position = event.position;
      slot.dirty = true;
    }
  }
  const writes: ReadModelWrite[] = [];
  for (const { collection, id, doc, position, dirty } of slots.values()) {
    if (!dirty) continue;
    writes.push(doc === null ? { op: 'delete', collection, id, position } : { op: 'put', collection, id, doc, position });
  }
  return writes;
}

export function indexProjections(projections: readonly Projection[]) {
  const byType = new Map<string, Projection[]>();
  for (const p of projections) for (const t of p.eventTypes) byType.set(t, [...(byType.get(t) ?? []), p]);
  return { eventTypes: new Set(byType.keys()), projectionsFor: (type: string) => byType.get(type) ?? [] };
}

/** The consumer group that keeps every read model current; writes and checkpoint commit together. */
export function projectorGroup(projections: readonly Projection[], store: ReadModelStore): ConsumerGroup {
  const { eventTypes, projectionsFor } = indexProjections(projections);
  return {
    name: PROJECTOR_GROUP,
    eventTypes,
    batchSize: 1000,
    async handle(batch) {
      const writes = await projectBatch(batch, projectionsFor, store);
      await store.commit(writes, { group: PROJECTOR_GROUP, position: batch[batch.length - 1]!.position });
    },
  };
}
