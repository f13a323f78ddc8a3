import type { EventMetadata, RecordedEvent } from '../../schemas/events/recorded.ts';

/**
 * Stored events, typed by the event catalog (schemas/events): `RecordedEvent<T>` narrows on
 * `type`. Positions are global and strictly increasing.
 */
export type { EventMetadata, RecordedEvent, StoredEvent } from '../../schemas/events/recorded.ts';

/**
 * An event to append. The store takes any type and data and returns them as written; the command
 * shell is what keeps the log to the catalog (it parses every event by its schema before appending).
 */
export type NewEvent<Type extends string = string, Data = unknown> = {
  id: string;
  type: Type;
  data: Data;
  metadata: EventMetadata;
};

/**
 * What the writer believes about the stream: any state, that it does not exist yet, that it
 * exists, or its exact current revision (the revision of its last event).
 */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

export type AppendResult = { nextRevision: number; lastPosition: bigint };

export type ReadAllOptions = { from?: bigint; limit?: number };

export interface EventStore {
  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /** Every event of one stream in revision order; empty when the stream does not exist. */
  readStream(streamId: string): Promise<RecordedEvent[]>;
  /** Events of the global log with position > `from` (default 0n), in position order. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Position of the newest event, 0n when the log is empty. */
  headPosition(): Promise<bigint>;
  /**
   * Catch up from `from` (exclusive), then stay live. `onEvents` is awaited before the next batch,
   * so a slow handler applies back-pressure instead of buffering the log in memory. `upTo` is the
   * position the subscription has read through: with a type filter it can be past the last event
   * delivered (and the batch can be empty), so a checkpoint can skip what the filter left out.
   */
  subscribeToAll(from: bigint, onEvents: (batch: RecordedEvent[], upTo: bigint) => Promise<void>, options?: SubscribeOptions): Subscription;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type SubscribeOptions = {
  batchSize?: number;
  /** Only these event types are read and delivered (filtered in the store, not after decoding). */
  eventTypes?: ReadonlySet<string>;
  onError?: (error: unknown) => void;
};

export interface Subscription {
  /** Resolves when the subscription has stopped and no handler is running. */
  stop(): Promise<void>;
}

/** The single error every adapter raises when the expected revision does not hold. */
export class ConcurrencyError extends Error {
  override readonly name = 'ConcurrencyError';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`stream ${streamId} is at revision ${String(actual)}, expected ${String(expected)}`);
  }
}
