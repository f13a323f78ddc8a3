import type { Projection } from '../../projections/projection.ts';
import type { EventStore } from '../ports/event-store.ts';
import type { ReadModelStore } from '../ports/read-models.ts';
import { createProjectionSession } from './projection-session.ts';
import { indexProjections, PROJECTOR_GROUP } from './projector.ts';

export type ReplayProgress = { position: bigint; head: bigint; events: number };

/**
 * Drops every read model and folds the whole log into them again. Documents stay in memory
 * between flushes, and right after the drop a document not in memory cannot be in the store
 * either, so nothing is looked up until memory fills and the session starts over from the store.
 */
export async function replayReadModels(opts: {
  store: EventStore;
  readModels: ReadModelStore;
  projections: readonly Projection[];
  pageSize?: number;
  flushEveryEvents?: number;
  maxDocsInMemory?: number;
  onProgress?: (p: ReplayProgress) => void;
}): Promise<ReplayProgress> {
  const { store, readModels, projections, pageSize = 5000, flushEveryEvents = 50_000, maxDocsInMemory = 200_000, onProgress } = opts;
  const { projectionsFor } = indexProjections(projections);
  await readModels.drop(
    projections.map((p) => p.collection),
    [PROJECTOR_GROUP],
  );
  const fromStore = (collection: string, id: string) => readModels.getVersioned(collection, id);
  let session = createProjectionSession(projectionsFor, async () => null);
  const progress: ReplayProgress = { position: 0n, head: await store.headPosition(), events: 0 };
  let unflushed = 0;
  const flush = async () => {
    await readModels.commit(session.drain(), { group: PROJECTOR_GROUP, position: progress.position });
    unflushed = 0;
    if (session.size() > maxDocsInMemory) session = createProjectionSession(projectionsFor, fromStore);
  };
  onProgress?.(progress);
  for (;;) {
    const page = await store.readAll({ from: progress.position, limit: pageSize });
    if (page.length === 0) break;
    await session.apply(page);
    progress.position = page[page.length - 1]!.position;
    progress.events += page.length;
    unflushed += page.length;
    if (unflushed >= flushEveryEvents) await flush();
    onProgress?.(progress);
  }
  if (unflushed > 0) await flush();
  return progress;
}
