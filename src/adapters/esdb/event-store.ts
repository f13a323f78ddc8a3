import { EventEmitter } from 'node:events';
import { type AllStreamResolvedEvent, type AppendResult, BACKWARDS, END, EventStoreDBClient, FORWARDS, type ReadPosition, START, StreamNotFoundError } from '@eventstore/db-client';
import { ConcurrencyError, type EventStore, type RecordedEvent, type Subscription } from '../../ports/event-store.ts';
import { allPositionOf, fromCurrentRevision, toEsdbExpectedRevision, toEsdbPosition, toEventData, toRecordedEvent, toStoreError } from './mapping.ts';
import { tailAll } from './tail-all.ts';

export type EsdbEventStoreOptions = ({ connectionString: string } | { client: EventStoreDBClient }) & {
  /** How often an idle type-filtered subscription looks past events its filter left out (appends by other processes). */
  probeIntervalMs?: number;
};

// Backwards pages while looking for the newest of our events among system events (projection links, metadata).
const HEAD_PAGE = 32;
const READ_PAGE_MAX = 1024;
const PING_DEADLINE_MS = 5000;

async function collect<T>(read: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of read) out.push(item);
  return out;
}

export function createEsdbEventStore(options: EsdbEventStoreOptions): EventStore {
  const owned = 'connectionString' in options;
  const client = owned ? EventStoreDBClient.connectionString(options.connectionString) : options.client;
  const { probeIntervalMs = 250 } = options;
  // Our own appends wake idle filtered subscriptions at once; the probe interval covers other writers.
  const appended = new EventEmitter().setMaxListeners(0);
  const subscriptions = new Set<Subscription>();

  return {
    async append(streamId, events, expected) {
      if (events.length === 0) throw new Error('append needs at least one event');
      let result: AppendResult;
      try {
        result = await client.appendToStream(streamId, events.map(toEventData), { expectedRevision: toEsdbExpectedRevision(expected) });
      } catch (error) {
        throw toStoreError(error, { streamId, expected });
      }
      // A client made with throwOnAppendFailure=false reports the conflict instead of throwing it.
      if (!result.success) throw new ConcurrencyError(streamId, expected, fromCurrentRevision(result.nextExpectedRevision));
      if (!result.position) throw new Error(`EventStoreDB acknowledged the append to ${streamId} without a position`);
      appended.emit('append');
      // The append's position is its last event's commit position, the one $all reads report for it.
      return { nextRevision: Number(result.nextExpectedRevision), lastPosition: result.position.commit };
    },

    async readStream(streamId) {
      try {
        const read = await collect(client.readStream(streamId, { direction: FORWARDS, fromRevision: START }));
        return read.map(toRecordedEvent).filter((e): e is RecordedEvent => e !== null);
      } catch (error) {
        if (error instanceof StreamNotFoundError) return [];
        throw toStoreError(error);
      }
    },

    async readAll({ from = 0n, limit = 1000 } = {}) {
      const out: RecordedEvent[] = [];
      let cursor = from;
      try {
        while (out.length < limit) {
          // +1: a read from a position includes the event there, which we already have. Pages stay
          // small enough to finish within the client's default deadline even of large events.
          const pageSize = Math.min(Math.max(limit - out.length + 1, 32), READ_PAGE_MAX);
          const page = await collect(client.readAll({ fromPosition: toEsdbPosition(cursor), maxCount: pageSize }));
          const pageFrom = cursor;
          for (const resolved of page) {
            const position = allPositionOf(resolved);
            if (position <= cursor) continue;
            cursor = position;
            const event = toRecordedEvent(resolved);
            if (event && out.length < limit) out.push(event);
          }
          if (page.length < pageSize || cursor === pageFrom) break;
        }
      } catch (error) {
        throw toStoreError(error);
      }
      return out;
    },

    async headPosition() {
      let from: ReadPosition = END;
      try {
        for (;;) {
          const page: AllStreamResolvedEvent[] = await collect(client.readAll({ direction: BACKWARDS, fromPosition: from, maxCount: HEAD_PAGE }));
          const newest = page.find((resolved) => toRecordedEvent(resolved) !== null);
          if (newest) return allPositionOf(newest);
          const oldest = page.at(-1)?.event?.position;
          if (page.length < HEAD_PAGE || !oldest) return 0n;
          from = oldest;
        }
      } catch (error) {
        throw toStoreError(error);
      }
    },

    subscribeToAll(from, onEvents, subscribeOptions = {}) {
      const tail = tailAll({ client, from, onEvents, options: subscribeOptions, appended, probeIntervalMs });
      const subscription: Subscription = {
        async stop() {
          await tail.stop();
          subscriptions.delete(subscription);
        },
      };
      subscriptions.add(subscription);
      return subscription;
    },

    async ping() {
      await collect(client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1, deadline: PING_DEADLINE_MS }));
    },

    async close() {
      await Promise.all([...subscriptions].map((s) => s.stop()));
      if (owned) await client.dispose();
    },
  };
}
