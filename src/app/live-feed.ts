import { EventEmitter } from 'node:events';

export type FeedMessage = {
  event: string;
  data: Record<string, unknown>;
  /** The log position of the event reported (lifecycle events; progress has none): older than a snapshot, it is already in it. */
  position?: bigint;
};

/**
 * In-process fan-out of what happens to one resource (a document's lifecycle events as the
 * projector applies them, and its parse/index progress, which is too fine-grained for the log).
 */
export function createLiveFeed() {
  const emitter = new EventEmitter().setMaxListeners(0);
  return {
    publish(key: string, message: FeedMessage) {
      emitter.emit(key, message);
    },
    subscribe(key: string, listener: (message: FeedMessage) => void): () => void {
      emitter.on(key, listener);
      return () => emitter.off(key, listener);
    },
  };
}

export type LiveFeed = ReturnType<typeof createLiveFeed>;

/** A subscription that keeps what arrives until it is released to a listener. */
export type HeldFeed = {
  /** Hands what came so far (those `early` keeps) to `forward`, in order, then every later message as it comes. */
  release(forward: (message: FeedMessage) => void, early?: (message: FeedMessage) => boolean): void;
  unsubscribe(): void;
};

/**
 * Subscribes now and holds the messages until `release`: whatever is read between the two (a read
 * model's document, a replay from the log) misses nothing that happens meanwhile. The reader drops
 * what its read already covers by the messages' positions.
 */
export function holdFeed(feed: LiveFeed, key: string): HeldFeed {
  const held: FeedMessage[] = [];
  let forward: ((message: FeedMessage) => void) | null = null;
  const unsubscribe = feed.subscribe(key, (message) => (forward ? forward(message) : held.push(message)));
  return {
    release(to, early = () => true) {
      forward = to;
      for (const message of held.splice(0)) if (early(message)) to(message);
    },
    unsubscribe,
  };
}
