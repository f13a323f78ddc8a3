import type { RecordedEvent } from './event-store.ts';

/**
 * Delivers the global log to named consumer groups, at least once and in order per stream.
 * The bus owns the group's checkpoint and advances it only after `handle` resolved.
 */
export interface EventBus {
  subscribe(group: ConsumerGroup): Promise<GroupHandle>;
  close(): Promise<void>;
}

export type ConsumerGroup = {
  name: string;
  /** Event types this group cares about; others are skipped (and checkpointed past). */
  eventTypes?: ReadonlySet<string>;
  batchSize?: number;
  /**
   * Events the bus may have in hand at once: it hands over the next batches while earlier ones are
   * still being handled (handle calls overlap), and still moves the checkpoint past a batch only
   * once it and every batch before it were handled, so what was in hand at a crash is delivered
   * again. Only for a group whose events need no order between batches (the runner: one request
   * per run's stream). Without it, one batch at a time.
   */
  inFlight?: number;
  handle(batch: RecordedEvent[]): Promise<void>;
  /**
   * Called as the bus stops the group, before it waits for the batches in hand: a group with
   * `inFlight` gives up what it has not started, so those handle calls end soon (rejecting: the
   * checkpoint does not pass them, and the next start delivers them again).
   */
  onStop?(): void;
  /**
   * Called once per event that still fails after the retries; the bus then parks it and moves on.
   * A consumer uses it to mark its document or run failed.
   */
  onParked?(event: RecordedEvent, error: unknown): Promise<void>;
  /**
   * Called once per message that could not be read as an event at all (a broker's bus: bytes that
   * are not the contract's), with the stream it was keyed by; the bus dead-letters it and moves on.
   * A consumer uses it to mark what that stream holds failed, as onParked does for an event.
   */
  onUnreadable?(streamId: string, error: unknown): Promise<void>;
};

export interface GroupHandle {
  /** Position of the last event the group has fully handled. */
  position(): bigint;
  /** Resolves once the group has handled everything up to `position` (or rejects on timeout). */
  waitFor(position: bigint, timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
}

export type ParkedEvent = { group: string; event: RecordedEvent; error: string; parkedAt: string };

/** Where groups keep their positions, and where poison events go. */
export interface CheckpointStore {
  load(group: string): Promise<bigint>;
  save(group: string, position: bigint): Promise<void>;
  park(entry: ParkedEvent): Promise<void>;
  parked(group: string): Promise<ParkedEvent[]>;
}
