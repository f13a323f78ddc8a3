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
