import test from 'ava';
import { connect, type Socket } from 'node:net';
import { loopbackChatEnv, startChatServer } from '../helpers/provider-servers.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';

// Slow and greedy clients, and load shedding (issue 12). Every wait here is on an event (a socket
// closing, a response, a gauge reaching a value), never on a duration, so a loaded machine is
// slower but not wrong; the configured limits are short, the test timeouts generous.

/** A raw TCP client: what it received, and whether the server closed the connection. */
type Raw = { socket: Socket; text(): string; closed: Promise<void>; isClosed(): boolean; until(pattern: RegExp): Promise<string> };

async function raw(url: string): Promise<Raw> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let received = '';
  let closed = false;
  const waiters: (() => void)[] = [];
  socket.on('data', (chunk) => {
    received += chunk.toString('utf8');
    for (const w of waiters.splice(0)) w();
  });
  socket.on('error', () => {}); // a reset is one way of being closed
  const whenClosed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      closed = true;
      for (const w of waiters.splice(0)) w();
      resolve();
    }),
  );
  return {
    socket,
    text: () => received,
    closed: whenClosed,
    isClosed: () => closed,
    until: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(received)) return resolve(received);
          if (closed) return reject(new Error(`closed before ${pattern}: ${JSON.stringify(received)}`));
          waiters.push(check);
        };
        check();
      }),
  };
}

/** The JSON body of the last response in `text`. */
const lastJson = (text: string) => JSON.parse(text.slice(text.lastIndexOf('\r\n\r\n') + 4));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls /metrics until `pattern` matches (the gauges say what the server is doing right now). */
async function untilMetric(server: TestServer, pattern: RegExp, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await server.call('GET', '/metrics', { key: null });
    if (pattern.test(body)) return;
    if (Date.now() > deadline) throw new Error(`metrics never matched ${pattern}`);
    await sleep(20);
  }
}

const auth = `authorization: Bearer ${ADMIN_KEY}\r\n`;

test('headers not completed in time: 408 in the error shape, and the connection closes; so does a connection that sends nothing', async (t) => {
  const server = await startServer({ KBQA_HEADERS_TIMEOUT_S: '1' });
  try {
    const partial = await raw(server.url);
    partial.socket.write('GET /healthz HTTP/1.1\r\nhost: x\r\nx-slow: ');
    const silent = await raw(server.url);
    await partial.closed;
    t.regex(partial.text(), /^HTTP\/1\.1 408 /);
    t.like(lastJson(partial.text()), { error: { type: 'invalid_request_error', code: 'request_timeout', param: null } });
    await silent.closed;
    t.pass();
    // A client that sends its headers at once is served as before.
    t.is((await server.call('GET', '/healthz', { key: null })).status, 200);
  } finally {
    await server.close();
  }
});

test('a body trickled slower than the minimum rate: 408, the connection closes, and nothing is appended (JSON and multipart)', async (t) => {
  const server = await startServer({ KBQA_BODY_TIMEOUT_BASE_S: '1', KBQA_BODY_MIN_RATE_KBPS: '1' });
  try {
    const { body: kb } = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'target' } });
    const head = await server.head();

    // JSON: 10 bytes every 200 ms is 50 B/s, far below 1 KB/s.
    const json = JSON.stringify({ name: 'slow', description: 'x'.repeat(2000) });
    const slowJson = await raw(server.url);
    slowJson.socket.write(`POST /v1/knowledge-bases HTTP/1.1\r\nhost: x\r\n${auth}content-type: application/json\r\ncontent-length: ${json.length}\r\n\r\n`);
    for (let i = 0; !slowJson.isClosed() && i < json.length; i += 10) {
      slowJson.socket.write(json.slice(i, i + 10));
      await sleep(200);
    }
    await slowJson.closed;
    t.regex(slowJson.text(), /^HTTP\/1\.1 408 /);
    t.regex(slowJson.text(), /\r\nconnection: close\r\n/i);
    t.like(lastJson(slowJson.text()), { error: { type: 'invalid_request_error', code: 'request_timeout' } });

    // Multipart, chunked (no declared length): a file part that starts, then stalls.
    const slowUpload = await raw(server.url);
    const boundary = 'b0undary';
    slowUpload.socket.write(
      `POST /v1/knowledge-bases/${kb.id}/documents HTTP/1.1\r\nhost: x\r\n${auth}content-type: multipart/form-data; boundary=${boundary}\r\ntransfer-encoding: chunked\r\n\r\n`,
    );
    const part = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="notes.txt"\r\ncontent-type: text/plain\r\n\r\nThe first words of a file that never ends.`;
    slowUpload.socket.write(`${part.length.toString(16)}\r\n${part}\r\n`);
    await slowUpload.closed;
    t.regex(slowUpload.text(), /^HTTP\/1\.1 408 /);
    t.like(lastJson(slowUpload.text()), { error: { code: 'request_timeout' } });

    t.is(await server.head(), head);
    t.deepEqual((await server.call('GET', `/v1/knowledge-bases/${kb.id}/documents`)).body.data, []);
    // The same requests at full speed go through.
    t.is((await server.call('POST', '/v1/knowledge-bases', { raw: json })).status, 201);
  } finally {
    await server.close();
  }
});

test('an idle keep-alive connection is closed after the keep-alive timeout; until then it serves request after request', async (t) => {
  const server = await startServer({ KBQA_KEEP_ALIVE_TIMEOUT_S: '1' });
  try {
    const client = await raw(server.url);
    client.socket.write('GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n');
    await client.until(/"status":"ok"/);
    t.notRegex(client.text(), /connection: close/i);
    const json = JSON.stringify({ name: 'kept alive' });
    client.socket.write(`POST /v1/knowledge-bases HTTP/1.1\r\nhost: x\r\n${auth}content-type: application/json\r\ncontent-length: ${json.length}\r\n\r\n${json}`);
    await client.until(/"name":"kept alive"/);
    t.notRegex(client.text(), /connection: close/i);
    t.false(client.isClosed());
    await client.closed;
    t.regex(client.text(), /^HTTP\/1\.1 200 [\s\S]*HTTP\/1\.1 201 /);
  } finally {
    await server.close();
  }
});

test('connections over the cap are closed as they arrive; the open ones keep being served', async (t) => {
  const server = await startServer({ KBQA_MAX_CONNECTIONS: '2' });
  try {
    const healthz = 'GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n';
    const [a, b] = [await raw(server.url), await raw(server.url)];
    for (const c of [a, b]) {
      c.socket.write(healthz);
      await c.until(/"status":"ok"/);
    }
    const over = await raw(server.url);
    over.socket.write(healthz);
    await over.closed;
    t.is(over.text(), '');
    a.socket.write(healthz);
    await a.until(/"status":"ok"[\s\S]*"status":"ok"/);
    // A place that frees up is taken again.
    b.socket.destroy();
    let served = false;
    for (let i = 0; i < 100 && !served; i++) {
      const next = await raw(server.url);
      next.socket.write(healthz);
      served = await next.until(/"status":"ok"/).then(() => true, () => false);
      next.socket.destroy();
      if (!served) await sleep(50);
    }
    t.true(served);
    a.socket.destroy();
  } finally {
    await server.close();
  }
});

/** A provider whose streamed answers never end: a streamed chat through it holds its slot until the client leaves. */
async function overloadSetup(env: Record<string, string>) {
  const provider = await startChatServer({ silentAfterChunks: 0 });
  const server = await startServer({
    ...loopbackChatEnv(provider.baseUrl),
    KBQA_RATE_LIMIT_PER_MINUTE: '0',
    KBQA_QUERY_CONCURRENCY: '1',
    KBQA_QUERY_QUEUE: '1',
    ...env,
  });
  const { body: kb } = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'busy' } });
  const post = (path: string, body: unknown, signal?: AbortSignal) =>
    fetch(server.url + path, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body), signal });
  const search = () => post(`/v1/knowledge-bases/${kb.id}/search`, { query: 'anything' });
  /** Takes the only slot with a stream that never ends; aborting it gives the slot back. */
  const holdSlot = async () => {
    const holder = new AbortController();
    const res = await post('/v1/chat/completions', { model: 'loop-chat', stream: true, messages: [{ role: 'user', content: 'hold' }] }, holder.signal);
    if (res.status !== 200) throw new Error(`the holder got ${res.status}`);
    await untilMetric(server, /kbqa_load_in_flight\{class="query"\} 1/);
    // The response stays referenced until abort: undici drops the connection of a response collected unread.
    // Cancelling only releases the body of a request already aborted: its outcome does not matter.
    return { abort: () => (holder.abort(), void res.body?.cancel().catch(() => {})) };
  };
  return {
    provider,
    server,
    post,
    search,
    holdSlot,
    async close() {
      await server.close();
      await provider.close();
    },
  };
}

test('past the slots and the queue, search gets 503 server_overloaded with retry-after; /healthz and /readyz still answer; the queued one runs once a slot frees', async (t) => {
  const s = await overloadSetup({ KBQA_QUEUE_WAIT_MS: '120000' });
  try {
    const holder = await s.holdSlot();
    const queued = s.search();
    await untilMetric(s.server, /kbqa_load_queued\{class="query"\} 1/);
    const refused = await s.search();
    t.is(refused.status, 503);
    t.true(Number(refused.headers.get('retry-after')) >= 1);
    t.like(await refused.json(), { error: { type: 'server_error', code: 'server_overloaded', param: null } });
    // The chat routes share the class.
    const chat = await s.post('/v1/chat', { model: 'kbqa-extractive', messages: [{ role: 'user', content: 'hi' }] });
    t.is(chat.status, 503);
    await chat.arrayBuffer();
    t.is((await s.server.call('GET', '/healthz', { key: null })).status, 200);
    t.is((await s.server.call('GET', '/readyz', { key: null })).status, 200);
    // Other routes are not limited.
    t.is((await s.server.call('GET', '/v1/knowledge-bases')).status, 200);
    // Unauthenticated requests never reach the limiter: 401, not 503.
    t.is((await s.server.call('POST', '/v1/chat', { key: null, json: {} })).status, 401);

    holder.abort();
    const served = await queued;
    t.is(served.status, 200);
    t.like(await served.json(), { object: 'list' });
    const { body: metrics } = await s.server.call('GET', '/metrics', { key: null });
    t.regex(metrics, /kbqa_load_shed_total\{class="query",reason="queue_full"\} 2/);
    t.regex(metrics, /kbqa_http_requests_total\{method="POST",route="\/v1\/knowledge-bases\/:kb_id\/search",status="503"\} 1/);
  } finally {
    await s.close();
  }
});

test('a request that waits in the queue longer than KBQA_QUEUE_WAIT_MS gets 503 server_overloaded', async (t) => {
  const s = await overloadSetup({ KBQA_QUEUE_WAIT_MS: '200' });
  try {
    const holder = await s.holdSlot();
    const waited = await s.search();
    t.is(waited.status, 503);
    t.truthy(waited.headers.get('retry-after'));
    t.like(await waited.json(), { error: { code: 'server_overloaded' } });
    await untilMetric(s.server, /kbqa_load_shed_total\{class="query",reason="queue_timeout"\} 1/);
    holder.abort();
    // The aborted stream gives its slot back once the server sees the client go; a search sent
    // before that would queue behind it, and past 200 ms be turned away (seen under a full run).
    await untilMetric(s.server, /kbqa_load_in_flight\{class="query"\} 0/);
    t.is((await s.search()).status, 200);
  } finally {
    await s.close();
  }
});

test('a queued request whose client disconnects is dropped: it never runs', async (t) => {
  const s = await overloadSetup({ KBQA_QUEUE_WAIT_MS: '120000' });
  try {
    const holder = await s.holdSlot();
    t.is(s.provider.requests.length, 1);
    // Were it to run, this chat would reach the provider.
    const leaving = new AbortController();
    const gone = s.post('/v1/chat/completions', { model: 'loop-chat', messages: [{ role: 'user', content: 'never asked' }] }, leaving.signal).catch(() => 'aborted');
    await untilMetric(s.server, /kbqa_load_queued\{class="query"\} 1/);
    leaving.abort();
    t.is(await gone, 'aborted');
    await untilMetric(s.server, /kbqa_load_queued\{class="query"\} 0/);
    await untilMetric(s.server, /kbqa_load_shed_total\{class="query",reason="client_gone"\} 1/);
    holder.abort();
    // The queue is first in, first out: once this one is served, the dropped one's turn is past.
    t.is((await s.search()).status, 200);
    t.is(s.provider.requests.length, 1);
    t.deepEqual(s.provider.requests.map((r) => (r.body.messages as { content: string }[]).at(-1)!.content), ['hold']);
  } finally {
    await s.close();
  }
});
