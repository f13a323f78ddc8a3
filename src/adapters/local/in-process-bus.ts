import type { CheckpointStore, ConsumerGroup, EventBus, GroupHandle } from '../../ports/event-bus.ts';
import type { EventStore, RecordedEvent, Subscription } from '../../ports/event-store.ts';
import { createInOrderWindow } from '../../lib/in-order-window.ts';
import { createPositionWaiters } from '../../lib/position-waiters.ts';
import { type Backoff, backoffDelay, isRetriable, sleep } from '../../lib/retry.ts';

export type InProcessBusOptions = {
  store: EventStore;
  checkpoints: CheckpointStore;
  backoff?: Backoff;
  now?: () => Date;
  onError?: (group: string, error: unknown) => void;
};

/**
 * Feeds each consumer group from the store's global log: at least once, in log order (so in
 * order per stream), with the group's checkpoint saved only after its handler succeeded. A group
 * with `inFlight` gets its next batches while earlier ones are handled; its checkpoint passes
 * only the batches handled from the oldest on (in-order-window.ts).
 */
export function createInProcessBus({
  store,
  checkpoints,
  backoff = { attempts: 5, baseMs: 20, maxMs: 2000 },
  now = () => new Date(),
  onError = () => {},
}: InProcessBusOptions): EventBus {
  const handles = new Set<GroupHandle>();

  async function subscribe(group: ConsumerGroup): Promise<GroupHandle> {
    let position = await checkpoints.load(group.name);
    let stopped = false;
    const waiters = createPositionWaiters(`consumer group ${group.name}`, () => position);

    const attempt = async (events: RecordedEvent[]) => {
      for (let n = 1; ; n++) {
        try {
          return await group.handle(events);
        } catch (error) {
          if (stopped || !isRetriable(error) || n >= backoff.attempts) throw error;
          await sleep(backoffDelay(n, backoff));
        }
      }
    };

    const deliver = async (events: RecordedEvent[]): Promise<void> => {
      try {
        await attempt(events);
      } catch (error) {
        if (stopped) throw error;
        // Find the poison event: a batch that fails is retried one event at a time.
        if (events.length > 1) {
          for (const event of events) await deliver([event]);
          return;
        }
        await park(events[0]!, error);
      }
    };

    const park = async (event: RecordedEvent, error: unknown) => {
      onError(group.name, error);
      await checkpoints.park({ group: group.name, event, error: describe(error), parkedAt: now().toISOString() });
      await group.onParked?.(event, error).catch((e: unknown) => onError(group.name, e));
    };

    const pass = async (upTo: bigint) => {
      await checkpoints.save(group.name, upTo);
      position = upTo;
      waiters.settle();
    };
    const window = group.inFlight === undefined ? null : createInOrderWindow(group.inFlight, pass);

    const subscription: Subscription = store.subscribeToAll(
      position,
      async (batch, upTo) => {
        if (window) return window.add(batch.length, upTo, () => deliver(batch));
        if (batch.length > 0) await deliver(batch);
        await pass(upTo);
      },
      { batchSize: group.batchSize ?? 500, eventTypes: group.eventTypes, onError: (error) => onError(group.name, error) },
    );

    const handle: GroupHandle = {
      position: () => position,
      waitFor: (target, timeoutMs) => waiters.waitFor(target, timeoutMs),
      async stop() {
        stopped = true;
        group.onStop?.();
        await subscription.stop();
        // The batches still in hand finish (as a group's one batch does) and pass what they can;
        // one the group gave up on stopping fails, as it should: it is delivered again on the next start.
        await window?.drain().catch(() => {});
        handles.delete(handle);
        waiters.rejectAll('stopped');
      },
    };
    handles.add(handle);
    return handle;
  }

  return {
    subscribe,
    async close() {
      await Promise.all([...handles].map((h) => h.stop()));
    },
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
