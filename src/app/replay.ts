import type { Projection } from '../../projections/projection.ts';
import type { EventStore } from '../ports/event-store.ts';
import type { ReadModelStore } from '../ports/read-models.ts';
import { indexProjections, PROJECTOR_GROUP, projectBatch } from './projector.ts';

export type ReplayProgress = { position: bigint; head: bigint; events: number };

/** Drops every read model and folds the whole log into them again, page by page. */
export async function replayReadModels(opts: {
  store: EventStore;
  readModels: ReadModelStore;
  projections: readonly Projection[];
  pageSize?: number;
  onProgress?: (p: ReplayProgress) => void;
}): Promise<ReplayProgress> {
  const { store, readModels, projections, pageSize = 5000, onProgress } = opts;
  const { projectionsFor } = indexProjections(projections);
  await readModels.drop(
    projections.map((p) => p.collection),
    [PROJECTOR_GROUP],
  );
  const head = await store.headPosition();
  const progress: ReplayProgress = { position: 0n, head, events: 0 };
  onProgress?.(progress);
  for (;;) {
    const page = await store.readAll({ from: progress.position, limit: pageSize });
    if (page.length === 0) break;
    const last = page[page.length - 1]!.position;
    await readModels.commit(await projectBatch(page, projectionsFor, readModels), { group: PROJECTOR_GROUP, position: last });
    progress.position = last;
    progress.events += page.length;
    onProgress?.(progress);
  }
  return progress;
}
