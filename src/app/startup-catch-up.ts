import { apiKeyEvents } from '../../schemas/events/api-key.ts';
import type { EventStore } from '../ports/event-store.ts';
import { readLogRange } from './log-range.ts';
import type { ProjectionWatch, Written } from './projection-watch.ts';

const KEY_EVENTS: ReadonlySet<string> = new Set(Object.keys(apiKeyEvents));

/**
 * What the read models must show before a start says ready: the log up to its head as of now. With
 * one global order (the in-process projector) that is the head's position. With a bus that orders
 * per stream (Kafka) a global position says nothing about another partition, so it is the last
 * position of every API key's stream, read from the log's key events up to the head: every key
 * recorded before the start then authenticates (a key's read model is all the authenticator reads).
 */
export async function startupTargets(store: EventStore, perStreamOrder: boolean): Promise<Written[]> {
  const head = await store.headPosition();
  if (!perStreamOrder) return [{ streamId: '$all', position: head }];
  const last = new Map<string, bigint>();
  await readLogRange(store, { after: 0n, through: head, types: KEY_EVENTS }, (events) => {
    for (const event of events) last.set(event.streamId, event.position);
  });
  return [...last].map(([streamId, position]) => ({ streamId, position }));
}

/** Waits, round after round, until the read models show every target; false if `stopped()` first. */
export async function catchUp(watch: ProjectionWatch, targets: readonly Written[], stopped: () => boolean, roundMs = 5000): Promise<boolean> {
  while (!stopped()) {
    try {
      await watch.waitFor(targets, roundMs);
      return true;
    } catch {
      // Not there yet (or the read failed): readiness keeps saying so, and asks again.
    }
  }
  return false;
}
