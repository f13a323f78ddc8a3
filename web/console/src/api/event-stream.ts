import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { consoleFetch } from './client.ts';

export type StreamOptions = {
  /** Each event as the server sent it; `data` is JSON-parsed when it is JSON. */
  onEvent(event: { id?: string; event?: string; data: unknown }): void;
  /** Stops the stream for good (the screen left). */
  signal: AbortSignal;
  /** Told when the stream is (re)connected, and when it dropped and is being resumed. */
  onState?(state: 'open' | 'reconnecting'): void;
  /** Wait before resuming a dropped stream (the server's `retry:` replaces it). */
  retryMs?: number;
};

/**
 * A server-sent event stream read with fetch (EventSource cannot send the console's header), parsed
 * by eventsource-parser, resumed after a drop with Last-Event-ID so that no event is lost or
 * repeated (the routes that stream are resumable: docs/console-session.md).
 */
export async function followEvents(path: string, options: StreamOptions): Promise<void> {
  let lastEventId: string | undefined;
  let retryMs = options.retryMs ?? 1000;
  while (!options.signal.aborted) {
    try {
      const response = await consoleFetch(path, { signal: options.signal, headers: { accept: 'text/event-stream', ...(lastEventId && { 'last-event-id': lastEventId }) } });
      options.onState?.('open');
      const parser = createParser({
        onEvent(message: EventSourceMessage) {
          if (message.id) lastEventId = message.id;
          options.onEvent({ id: message.id, event: message.event, data: parseData(message.data) });
        },
        onRetry(ms) {
          retryMs = ms;
        },
      });
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
    } catch (error) {
      if (options.signal.aborted) return;
      // A refusal (401, 404) will not mend by retrying.
      if (error instanceof Error && 'status' in error && (error as { status: number }).status < 500) throw error;
    }
    if (options.signal.aborted) return;
    options.onState?.('reconnecting');
    await new Promise((resolve) => setTimeout(resolve, retryMs));
  }
}

function parseData(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}
