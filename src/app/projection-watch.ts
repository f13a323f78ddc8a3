import type { GroupHandle } from '../ports/event-bus.ts';
import type { ReadModelStore } from '../ports/read-models.ts';
import { sleep } from '../lib/retry.ts';

/** An append a command made: the stream it wrote and the global position of its last event. */
export type Written = { streamId: string; position: bigint };

/** Tells a command when the read models show what it appended (read your writes). */
export interface ProjectionWatch {
  waitFor(written: readonly Written[], timeoutMs: number): Promise<void>;
}

/**
 * Where the projector records, per stream, the position of the last event it has applied. Only a
 * bus that orders per stream (Kafka) needs it: there a global position says nothing about
 * another partition's progress.
 */
export const STREAM_POSITIONS = 'stream_positions';

/** The in-process projector reads the log in order, so one global position covers every stream. */
export function groupWatch(projector: GroupHandle): ProjectionWatch {
  return {
    async waitFor(written, timeoutMs) {
      const last = written.reduce((max, w) => (w.position > max ? w.position : max), 0n);
      if (last > 0n) await projector.waitFor(last, timeoutMs);
    },
  };
}

/** Polls the projector's per-stream positions: works from any process that reads the read models. */
export function streamPositionWatch(readModels: ReadModelStore, pollMs = 10): ProjectionWatch {
  const reached = async ({ streamId, position }: Written) => ((await readModels.getVersioned(STREAM_POSITIONS, streamId))?.position ?? 0n) >= position;
  return {
    async waitFor(written, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      let pending = written.filter((w) => w.position > 0n);
      while (pending.length > 0) {
        const done = await Promise.all(pending.map(reached));
        pending = pending.filter((_, i) => !done[i]);
        if (pending.length === 0) return;
        if (Date.now() >= deadline) throw new Error(`the projector did not apply ${pending[0]!.streamId} up to position ${pending[0]!.position} within ${timeoutMs} ms`);
        await sleep(pollMs);
      }
    },
  };
}
