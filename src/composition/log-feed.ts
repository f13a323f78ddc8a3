import type { ProjectionWatch } from '../app/projection-watch.ts';
import type { EventStore, RecordedEvent, Subscription } from '../ports/event-store.ts';
import { ANNOUNCED_TYPES } from './announce.ts';

/**
 * An API process that runs apart from the projector follows the log itself, from its head, and
 * announces each event once the projector has applied it, so a client told "done" can read it.
 */
export async function followLog(opts: {
  store: EventStore;
  projections: ProjectionWatch;
  announce: (batch: readonly RecordedEvent[]) => void;
  waitMs: number;
  onError: (error: unknown) => void;
}): Promise<Subscription> {
  const { store, projections, announce, waitMs, onError } = opts;
  return store.subscribeToAll(
    await store.headPosition(),
    async (batch) => {
      if (batch.length === 0) return;
      // A projector that is behind delays the announcement, never drops it.
      await projections.waitFor(batch.map((e) => ({ streamId: e.streamId, position: e.position })), waitMs).catch(onError);
      announce(batch);
    },
    { eventTypes: ANNOUNCED_TYPES, onError },
  );
}
