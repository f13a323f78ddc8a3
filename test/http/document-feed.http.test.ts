import anyTest, { type TestFn } from 'ava';
import { KNOWLEDGE_BASE_FEED_TYPES, knowledgeBaseFeedKey } from '../../src/app/document-feed.ts';
import { createWorkspaceWithAdminKey } from '../../src/app/services/workspaces.ts';
import { settledDocument } from '../helpers/documents.ts';
import { reader, type SentEvent } from '../helpers/event-stream.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';

/** GET /v1/knowledge-bases/{id}/documents/events: every document of a knowledge base, on the whole runtime (the workers parse and index). */
const test = anyTest as TestFn<{ server: TestServer; kb: string }>;
test.before(async (t) => {
  t.context.server = await startServer();
  t.context.kb = (await t.context.server.call('POST', '/v1/knowledge-bases', { json: { name: 'Feed' } })).body.id;
});
test.after.always((t) => t.context.server?.close());

const feedOf = (t: { context: { server: TestServer } }, kb: string, { key = ADMIN_KEY, lastEventId, signal }: { key?: string; lastEventId?: string; signal?: AbortSignal } = {}) =>
  fetch(`${t.context.server.url}/v1/knowledge-bases/${kb}/documents/events`, {
    headers: { authorization: `Bearer ${key}`, ...(lastEventId !== undefined && { 'last-event-id': lastEventId }) },
    signal,
  });

const upload = async (t: { context: { server: TestServer } }, kb: string, name: string) => {
  const res = await t.context.server.call('POST', `/v1/knowledge-bases/${kb}/documents`, { json: { name, text: `# ${name}\n\nA note called ${name}, about ${Math.random()}.\n` } });
  return res.body.data[0].id as string;
};

const lifecycle = (events: SentEvent[]) => events.filter((e) => e.event !== 'progress' && e.event !== 'ready');
const readyIn = (ids: string[]) => (events: SentEvent[]) => ids.every((id) => events.some((e) => e.event === 'DocumentIndexed' && e.data.document_id === id));

/** What the log holds for the knowledge base: the ids the stream must send, in order. */
async function logPositions(server: TestServer, kb: string): Promise<string[]> {
  const events = await server.runtime.store.readAll({ limit: 100_000 });
  return events.filter((e) => KNOWLEDGE_BASE_FEED_TYPES.has(e.type) && (e.data as { knowledge_base_id?: string }).knowledge_base_id === kb).map((e) => String(e.position));
}

test.serial('one stream sees eight uploads through their lifecycle to ready, each step with its id, status and revision', async (t) => {
  const kb = (await t.context.server.call('POST', '/v1/knowledge-bases', { json: { name: 'Eight' } })).body.id;
  const leaving = new AbortController();
  const res = await feedOf(t, kb, { signal: leaving.signal });
  t.is(res.status, 200);
  t.is(res.headers.get('content-type'), 'text/event-stream; charset=utf-8');
  const stream = reader(res);
  await stream.until(/event: ready/);
  const [ready] = stream.events();
  t.like(ready, { event: 'ready', data: { object: 'knowledge_base.documents.ready', knowledge_base_id: kb } });
  t.is(ready!.id, ready!.data.position);

  const ids = await Promise.all(Array.from({ length: 8 }, (_, i) => upload(t, kb, `note-${i}.md`)));
  await stream.until(readyIn(ids));
  leaving.abort();
  const events = lifecycle(stream.events());
  for (const id of ids) {
    const mine = events.filter((e) => e.data.document_id === id);
    t.deepEqual(mine.map((e) => e.data.status), ['queued', 'parsing', 'indexing', 'ready'], id);
    t.deepEqual(mine.map((e) => e.data.revision), [0, 1, 2, 3], id);
  }
  // Ids are log positions, rising, after ready's; the stream sent exactly what the log holds for the knowledge base.
  const positions = events.map((e) => BigInt(e.id!));
  t.true(positions.every((p, i) => p > (i === 0 ? BigInt(ready!.id!) : positions[i - 1]!)));
  t.deepEqual(events.map((e) => e.id), await logPositions(t.context.server, kb));
  const progress = stream.events().filter((e) => e.event === 'progress');
  t.true(progress.length > 0 && progress.every((e) => e.id === undefined && ids.includes(e.data.document_id)), 'progress is for the documents, with no id');
});

test.serial('a stream resumed with Last-Event-ID replays what it missed, then ready, then live: no event twice, none missing', async (t) => {
  const kb = (await t.context.server.call('POST', '/v1/knowledge-bases', { json: { name: 'Resume' } })).body.id;
  const first = new AbortController();
  const a = reader(await feedOf(t, kb, { signal: first.signal }));
  await a.until(/event: ready/);
  const early = [await upload(t, kb, 'a.md'), await upload(t, kb, 'b.md')];
  await a.until(readyIn(early.slice(0, 1)));
  first.abort();
  const seenA = lifecycle(a.events());
  const lastId = seenA.at(-1)!.id!;

  // While no one listens: the rest of the first two, and two more.
  const late = [await upload(t, kb, 'c.md'), await upload(t, kb, 'd.md')];
  for (const id of [...early, ...late]) await settledDocument(t.context.server, kb, id);

  const second = new AbortController();
  const b = reader(await feedOf(t, kb, { lastEventId: lastId, signal: second.signal }));
  await b.until(/event: ready/);
  const replayed = lifecycle(b.events());
  t.true(replayed.length > 0);
  t.true(b.events().at(-1)!.event === 'ready', 'ready comes after the replay');
  // Then live.
  const after = await upload(t, kb, 'e.md');
  await b.until(readyIn([after]));
  second.abort();
  const seen = [...seenA, ...lifecycle(b.events())].map((e) => e.id!);
  t.is(new Set(seen).size, seen.length, 'no event twice');
  t.deepEqual(seen, await logPositions(t.context.server, kb), 'none missing, in log order');
});

test.serial('who may follow a knowledge base: read scope, that knowledge base; a Last-Event-ID this stream never sent is a 400', async (t) => {
  const { server, kb } = t.context;
  const other = (await server.call('POST', '/v1/knowledge-bases', { json: { name: 'Other' } })).body.id;
  const limited = (await server.call('POST', '/v1/api-keys', { json: { name: 'elsewhere', scopes: ['read'], knowledge_base_ids: [other] } })).body.secret;
  const refused = await feedOf(t, kb, { key: limited });
  t.is(refused.status, 403);
  t.like(await refused.json(), { error: { type: 'permission_error', code: 'knowledge_base_not_allowed' } });
  const foreignAdmin = (await createWorkspaceWithAdminKey(server.runtime.ctx, 'feed-elsewhere'))!;
  const hidden = await feedOf(t, kb, { key: foreignAdmin });
  t.is(hidden.status, 404);
  t.like(await hidden.json(), { error: { code: 'knowledge_base_not_found' } });
  t.is((await feedOf(t, kb, { key: 'kbqa-not-a-key' })).status, 401);

  const reading = (await server.call('POST', '/v1/api-keys', { json: { name: 'reader', scopes: ['read'], knowledge_base_ids: [kb] } })).body.secret;
  const allowed = new AbortController();
  const ok = await feedOf(t, kb, { key: reading, signal: allowed.signal });
  t.is(ok.status, 200);
  allowed.abort();

  const garbled = await feedOf(t, kb, { lastEventId: 'yesterday' });
  t.is(garbled.status, 400);
  t.like(await garbled.json(), { error: { code: 'invalid_last_event_id', param: 'Last-Event-ID' } });
  const ahead = await feedOf(t, kb, { lastEventId: String((await server.head()) + 1000n) });
  t.is(ahead.status, 400);
  t.like(await ahead.json(), { error: { code: 'last_event_id_ahead' } });
});

test.serial('a client that leaves releases its feed subscription and its replay; deleting the knowledge base ends the stream', async (t) => {
  const { runtime } = t.context.server;
  const kb = (await t.context.server.call('POST', '/v1/knowledge-bases', { json: { name: 'Leaving' } })).body.id;
  await settledDocument(t.context.server, kb, await upload(t, kb, 'one.md'));
  const { feed, store } = runtime;
  const key = knowledgeBaseFeedKey(kb);
  const subscribe = feed.subscribe;
  const subscribeToAll = store.subscribeToAll;
  let listening = 0;
  let replaying = 0;
  feed.subscribe = (k, listener) => {
    if (k !== key) return subscribe(k, listener);
    listening++;
    const unsubscribe = subscribe(k, listener);
    return () => (listening--, unsubscribe());
  };
  store.subscribeToAll = (from, onEvents, options) => {
    if (options?.eventTypes !== KNOWLEDGE_BASE_FEED_TYPES) return subscribeToAll(from, onEvents, options);
    replaying++;
    const subscription = subscribeToAll(from, onEvents, options);
    return { stop: () => subscription.stop().finally(() => replaying--) };
  };
  const settle = async (condition: () => boolean) => {
    for (let i = 0; !condition() && i < 300; i++) await new Promise((r) => setTimeout(r, 10));
  };
  try {
    const leaving = new AbortController();
    const stream = reader(await feedOf(t, kb, { lastEventId: '0', signal: leaving.signal }));
    await stream.until(/event: ready/);
    t.deepEqual(lifecycle(stream.events()).map((e) => e.data.status), ['queued', 'parsing', 'indexing', 'ready'], 'from 0: the whole history');
    t.is(listening, 1);
    await settle(() => replaying === 0);
    t.is(replaying, 0, 'the replay stopped reading the log once it reached the head');
    leaving.abort();
    await settle(() => listening === 0);
    t.is(listening, 0, 'the subscription is released when the client leaves');

    const staying = reader(await feedOf(t, kb));
    await staying.until(/event: ready/);
    t.is((await t.context.server.call('DELETE', `/v1/knowledge-bases/${kb}`)).status, 200);
    await t.throwsAsync(staying.until(/never/), { message: /the stream ended/ });
    t.is(staying.events().at(-1)!.event, 'KnowledgeBaseDeleted');
    await settle(() => listening === 0);
    t.is(listening, 0);
  } finally {
    feed.subscribe = subscribe;
    store.subscribeToAll = subscribeToAll;
  }
});
