import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import { abortOnDisconnect } from './client-abort.ts';
import { toApiError } from './errors.ts';
import type { Reply } from './route.ts';

export const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' };

const HEARTBEAT_MS = 15_000;

export type EventStream = {
  /** The reply that starts the stream: the headers, and the body the events are written to. */
  reply: Reply;
  /**
   * One event: `id: <id>` when given (what a reconnecting client sends back as Last-Event-ID),
   * `event: <name>` (none: a plain message) and its data as JSON on one `data:` line.
   */
  send(data: unknown, event?: string, id?: string): void;
  /** A `data:` line as it is (chat's `[DONE]`). */
  sendRaw(data: string): void;
  /**
   * The failure as an `error` event in the API's error body, `{error: {message, type, param, code}, status}`,
   * then the end. A 5xx reads generically and goes to `onServerError`; nothing is sent to a client that left.
   */
  fail(error: unknown): void;
  end(): void;
  /** Aborts once the stream is over, ended or its client gone: producers stop and subscriptions go on it. */
  signal: AbortSignal;
};

/**
 * A server-sent event stream as a Koa body, the one writer every streamed answer uses (chat,
 * workflow runs, document events). A comment line every `heartbeatMs` keeps proxies from closing a
 * quiet stream. Whatever ends it (`end`, `fail`, or the client leaving, which Koa and the envelope
 * both report) aborts `signal` once, stops the heartbeat and drops later writes.
 */
export function openEventStream(ctx: Context, options: { onServerError(error: unknown): void; heartbeatMs?: number }): EventStream {
  const out = new PassThrough();
  const over = abortOnDisconnect(ctx);
  const heartbeat = setInterval(() => write(': keep-alive\n\n'), options.heartbeatMs ?? HEARTBEAT_MS);
  const close = () => {
    clearInterval(heartbeat);
    if (!over.signal.aborted) over.abort(new Error('the event stream is over'));
  };
  // The client leaving aborts `over` first (the envelope), or Koa destroys the body when the response closes.
  over.signal.addEventListener('abort', () => (clearInterval(heartbeat), out.destroyed || out.writableEnded || out.destroy()), { once: true });
  out.once('close', close);
  // A stream may stay quiet for minutes between events: no socket timeout may cut it.
  ctx.req.socket.setTimeout(0);

  const write = (text: string) => {
    if (!over.signal.aborted) out.write(text);
  };
  const end = () => {
    if (over.signal.aborted) return;
    out.end();
    close();
  };
  return {
    reply: { headers: SSE_HEADERS, body: out },
    send: (data, event, id) => write(`${id !== undefined ? `id: ${id}\n` : ''}${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`),
    sendRaw: (data) => write(`data: ${data}\n\n`),
    fail(error) {
      if (over.signal.aborted) return;
      const { status, type, code, message, param } = toApiError(error);
      // Only what is meant for clients leaves the server; anything else reads generically and goes to the log.
      if (status >= 500) options.onServerError(error);
      write(`event: error\ndata: ${JSON.stringify({ error: { message, type, param, code }, status })}\n\n`);
      end();
    },
    end,
    signal: over.signal,
  };
}
