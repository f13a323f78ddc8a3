import type { Projection } from '../../projections/projection.ts';
import type { CheckpointStore } from '../ports/event-bus.ts';
import type { EventStore } from '../ports/event-store.ts';
import type { ReadModelStore } from '../ports/read-models.ts';
import { createProjectionSession } from './projection-session.ts';
import { STREAM_POSITIONS } from './projection-watch.ts';
import { indexProjections, noteStreamPositions, PROJECTOR_GROUP, streamPositionWrites } from './projector.ts';

export type ReplayProgress = { position: bigint; head: bigint; events: number; resumedFrom: bigint };

/** The replay's own checkpoint: non-zero only while a replay is unfinished, so the next one resumes. */
export const REPLAY_GROUP = 'replay';

/**
 * Drops every read model and folds the whole log into them again, or resumes an interrupted
 * replay from its last flush. Documents stay in memory between flushes, and right after the drop
 * a document not in memory cannot be in the store either, so nothing is looked up until memory
 * fills (or a resumed replay must read what the interrupted one wrote).
 */
export async function replayReadModels(opts: {
  store: EventStore;
  readModels: ReadModelStore;
  checkpoints: CheckpointStore;
  projections: readonly Projection[];
  /** Also rebuild the per-stream positions a per-stream-ordered bus (Kafka) waits on. */
  trackStreams?: boolean;
  /** Start over even if an earlier replay was interrupted. */
  restart?: boolean;
  pageSize?: number;
  flushEveryEvents?: number;
  maxDocsInMemory?: number;
  onProgress?: (p: ReplayProgress) => void;
}): Promise<ReplayProgress> {
  const { store, readModels, checkpoints, projections, trackStreams = false, restart = false, pageSize = 5000, flushEveryEvents = 50_000, maxDocsInMemory = 200_000, onProgress } = opts;
  const { projectionsFor } = indexProjections(projections);
  const resumedFrom = restart ? 0n : await checkpoints.load(REPLAY_GROUP);
  const fromStore = (collection: string, id: string) => readModels.getVersioned(collection, id);
  if (resumedFrom === 0n) {
    const collections = [...new Set(projections.flatMap((p) => (p.totals ? [p.collection, p.totals.collection] : [p.collection])))];
    await readModels.drop(trackStreams ? [...collections, STREAM_POSITIONS] : collections, [PROJECTOR_GROUP, REPLAY_GROUP]);
  }
  let session = createProjectionSession(projectionsFor, resumedFrom === 0n ? async () => null : fromStore);
  const progress: ReplayProgress = { position: resumedFrom, head: await store.headPosition(), events: 0, resumedFrom };
  let unflushed = 0;
  const streams = new Map<string, bigint>();
  const flush = async () => {
    const writes = session.drain();
    if (trackStreams) writes.push(...streamPositionWrites(streams));
    await readModels.commit(writes, { group: REPLAY_GROUP, position: progress.position });
    unflushed = 0;
    streams.clear();
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
    if (trackStreams) noteStreamPositions(page, streams);
    if (unflushed >= flushEveryEvents) await flush();
    onProgress?.(progress);
  }
  await flush();
  // Finished: the live projector continues from here, and the next replay starts from scratch.
  await readModels.commit([], { group: PROJECTOR_GROUP, position: progress.position });
  await readModels.drop([], [REPLAY_GROUP]);
  return progress;
}
