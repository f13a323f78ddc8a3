import test from 'ava';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { ApiError } from '../../src/ports/api-error.ts';
import { envelope } from '../../src/http/envelope.ts';
import { createMetrics } from '../../src/http/metrics.ts';
import { type EventStream, openEventStream } from '../../src/http/sse.ts';

/** A bare app whose one route opens an event stream and hands it to `produce`. */
async function serve(produce: (stream: EventStream) => void, heartbeatMs = 60_000) {
  const serverErrors: unknown[] = [];
  const app = new Koa();
  // A client leaving mid-stream is reported to 'error' (the real app logs it at debug).
  app.silent = true;
  app.use(envelope(createMetrics({ consumers: () => ({}), logHead: async () => 0n }), () => {}));
  app.use((ctx) => {
    const stream = openEventStream(ctx, { onServerError: (error) => serverErrors.push(error), heartbeatMs });
    produce(stream);
    ctx.set(stream.reply.headers!);
    ctx.body = stream.reply.body;
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, serverErrors, close: () => server.close() };
}

test('events, raw data lines and the end, in the wire format clients parse', async (t) => {
  const app = await serve((stream) => {
    stream.send({ a: 1 }, 'thing');
    stream.send({ b: 2 });
    stream.sendRaw('[DONE]');
    stream.end();
    stream.send({ late: true }, 'ignored');
  });
  try {
    const res = await fetch(app.url);
    t.is(res.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    t.is(res.headers.get('cache-control'), 'no-cache');
    t.is(await res.text(), 'event: thing\ndata: {"a":1}\n\ndata: {"b":2}\n\ndata: [DONE]\n\n');
  } finally {
    app.close();
  }
});

test('a failure is an error event in the API error shape: a 4xx as it is, anything else generic and logged', async (t) => {
  const app = await serve((stream) => setTimeout(() => stream.fail(new ApiError(429, 'rate_limit_error', 'provider_rate_limited', 'Slow down.')), 5));
  const internal = await serve((stream) => setTimeout(() => stream.fail(new Error('database password is hunter2')), 5));
  try {
    t.is(await (await fetch(app.url)).text(), 'event: error\ndata: {"error":{"message":"Slow down.","type":"rate_limit_error","param":null,"code":"provider_rate_limited"},"status":429}\n\n');
    t.deepEqual(app.serverErrors, []);
    const text = await (await fetch(internal.url)).text();
    t.is(text, 'event: error\ndata: {"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":"internal_error"},"status":500}\n\n');
    t.is(internal.serverErrors.length, 1);
  } finally {
    app.close();
    internal.close();
  }
});

test('a quiet stream sends heartbeats; a client that leaves aborts the signal, and the heartbeats stop', async (t) => {
  let opened!: EventStream;
  const app = await serve((stream) => (opened = stream), 20);
  try {
    const leaving = new AbortController();
    const res = await fetch(app.url, { signal: leaving.signal });
    const reader = res.body!.getReader();
    const { value } = await reader.read();
    t.is(new TextDecoder().decode(value), ': keep-alive\n\n');
    t.false(opened.signal.aborted);
    leaving.abort();
    await once(opened.signal, 'abort');
    t.true(opened.signal.aborted);
    // Writes after the client left go nowhere, and fail nothing.
    opened.send({ after: true });
    opened.fail(new Error('too late'));
    t.deepEqual(app.serverErrors, []);
  } finally {
    app.close();
  }
});
