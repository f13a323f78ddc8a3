import test from 'ava';
import { createWorkspaceWithAdminKey } from '../../src/app/services/workspaces.ts';
import { defaultSettings } from '../../schemas/knowledge-base-settings.ts';
import { knowledgeBaseCreated, OFFLINE_EMBEDDER } from '../helpers/given-events.ts';
import { httpSpec } from '../helpers/http-spec.ts';

// Knowledge-base CRUD needs no worker: each test has an app of its own over in-memory ports.
const app = (t: Parameters<typeof httpSpec>[0]) => httpSpec(t).app();

test('create answers 201 with defaults filled in, an ETag, and is readable at once', async (t) => {
  const { call } = await app(t);
  const res = await call('POST', '/v1/knowledge-bases', { json: { name: 'Handbook', description: 'HR', settings: { top_k: 10 } } });
  t.is(res.status, 201);
  t.is(res.headers.get('etag'), '"0"');
  t.regex(res.body.id, /^kb_/);
  t.like(res.body, { object: 'knowledge_base', name: 'Handbook', description: 'HR', document_count: 0, chunk_count: 0 });
  t.deepEqual(res.body.settings, {
    embedding_model: 'kbqa-hash-embed-512',
    top_k: 10,
    score_threshold: 0,
    recall: { vector: true, keyword: true, graph: false },
    rerank: { enabled: true, model: null },
    chunking: { max_tokens: 512, overlap_tokens: 64 },
    answerability: { min_coverage: 0.4 },
    language: 'auto',
    ocr: { languages: null },
  });
  const got = await call('GET', `/v1/knowledge-bases/${res.body.id}`);
  t.is(got.status, 200);
  t.deepEqual(got.body, res.body);
  t.is(got.body.workspace_id, undefined);
});

test('patch deep-merges settings and bumps the ETag; If-Match with a stale ETag is 409 and writes nothing', async (t) => {
  const { call, head } = await app(t);
  const kb = (await call('POST', '/v1/knowledge-bases', { json: { name: 'Patch me' } })).body;
  const patched = await call('PATCH', `/v1/knowledge-bases/${kb.id}`, {
    json: { settings: { recall: { graph: true }, score_threshold: 0.3 } },
    headers: { 'if-match': '"0"' },
  });
  t.is(patched.status, 200);
  t.is(patched.headers.get('etag'), '"1"');
  t.deepEqual(patched.body.settings.recall, { vector: true, keyword: true, graph: true });
  t.is(patched.body.settings.score_threshold, 0.3);
  t.is(patched.body.name, 'Patch me');
  const before = await head();
  const stale = await call('PATCH', `/v1/knowledge-bases/${kb.id}`, { json: { name: 'lost update' }, headers: { 'if-match': '"0"' } });
  t.is(stale.status, 409);
  t.is(stale.body.error.type, 'conflict_error');
  t.is(stale.body.error.code, 'concurrent_modification');
  t.is(await head(), before);
  t.is((await call('GET', `/v1/knowledge-bases/${kb.id}`)).body.name, 'Patch me');
});

test('list pages with limit and after, newest first by default', async (t) => {
  const { call } = await app(t);
  const dedicated = (await call('POST', '/v1/api-keys', { json: { name: 'lister', scopes: ['admin'] } })).body.secret;
  const ids: string[] = [];
  for (const name of ['p1', 'p2', 'p3']) ids.push((await call('POST', '/v1/knowledge-bases', { json: { name } })).body.id);
  const all = (await call('GET', '/v1/knowledge-bases?limit=100', { key: dedicated })).body.data.map((k: any) => k.id);
  t.deepEqual(all.slice(0, 3), [...ids].reverse());
  const first = await call('GET', '/v1/knowledge-bases?limit=2');
  t.is(first.body.data.length, 2);
  t.true(first.body.has_more);
  const next = await call('GET', `/v1/knowledge-bases?limit=2&after=${first.body.last_id}`);
  t.not(next.body.data[0].id, first.body.data[1].id);
  const asc = await call('GET', `/v1/knowledge-bases?order=asc&limit=100`);
  const ascIds = asc.body.data.map((k: any) => k.id);
  t.deepEqual(ascIds, [...ascIds].sort());
});

test('delete: 200, then 404 everywhere, and gone from the list', async (t) => {
  const { call } = await app(t);
  const kb = (await call('POST', '/v1/knowledge-bases', { json: { name: 'Doomed' } })).body;
  const deleted = await call('DELETE', `/v1/knowledge-bases/${kb.id}`);
  t.deepEqual(deleted.body, { id: kb.id, object: 'knowledge_base.deleted', deleted: true });
  t.is((await call('GET', `/v1/knowledge-bases/${kb.id}`)).status, 404);
  t.is((await call('PATCH', `/v1/knowledge-bases/${kb.id}`, { json: { name: 'x' } })).status, 404);
  t.is((await call('DELETE', `/v1/knowledge-bases/${kb.id}`)).status, 404);
  const list = await call('GET', '/v1/knowledge-bases?limit=100');
  t.false(list.body.data.some((k: any) => k.id === kb.id));
});

test('another workspace’s knowledge base is 404 for every verb, and absent from its list', async (t) => {
  const { call, ctx, head } = await app(t);
  const kb = (await call('POST', '/v1/knowledge-bases', { json: { name: 'Private' } })).body;
  const otherKey = (await createWorkspaceWithAdminKey(ctx, 'other-team'))!;
  const before = await head();
  for (const [method, json] of [['GET'], ['PATCH', { name: 'hijack' }], ['DELETE']] as const) {
    const res = await call(method, `/v1/knowledge-bases/${kb.id}`, { key: otherKey, json });
    t.is(res.status, 404, method);
    t.is(res.body.error.code, 'knowledge_base_not_found');
  }
  t.is(await head(), before);
  const list = await call('GET', '/v1/knowledge-bases?limit=100', { key: otherKey });
  t.deepEqual(list.body.data, []);
});

test('a key limited to some knowledge bases gets 403 elsewhere and sees only its own in lists', async (t) => {
  const { call } = await app(t);
  const mine = (await call('POST', '/v1/knowledge-bases', { json: { name: 'Allowed' } })).body;
  const theirs = (await call('POST', '/v1/knowledge-bases', { json: { name: 'Not allowed' } })).body;
  const limited = (await call('POST', '/v1/api-keys', { json: { name: 'limited', knowledge_base_ids: [mine.id] } })).body.secret;
  t.is((await call('GET', `/v1/knowledge-bases/${mine.id}`, { key: limited })).status, 200);
  const denied = await call('GET', `/v1/knowledge-bases/${theirs.id}`, { key: limited });
  t.is(denied.status, 403);
  t.is(denied.body.error.code, 'knowledge_base_not_allowed');
  const list = await call('GET', '/v1/knowledge-bases?limit=100', { key: limited });
  t.deepEqual(list.body.data.map((k: any) => k.id), [mine.id]);
  t.is((await call('POST', '/v1/knowledge-bases', { key: limited, json: { name: 'new' } })).status, 403);
});

// The same behaviour told as given events → a request → the response and the events it appended.

const NOW = '2026-03-01T12:00:00.000Z';

test('given a knowledge base, a patch against its ETag appends one KnowledgeBaseUpdated with the whole new state', async (t) => {
  const outcome = await httpSpec(t, { now: NOW })
    .given(knowledgeBaseCreated({ id: 'kb_manuals', name: 'Manuals' }))
    .when({ method: 'PATCH', path: '/v1/knowledge-bases/kb_manuals', json: { description: 'How-tos', settings: { top_k: 8 } }, headers: { 'if-match': '"0"' } })
    .then({
      status: 200,
      headers: { etag: '"1"' },
      bodyMatches: { id: 'kb_manuals', name: 'Manuals', description: 'How-tos', settings: { top_k: 8 } },
      events: [{
        type: 'KnowledgeBaseUpdated',
        data: { knowledge_base_id: 'kb_manuals', name: 'Manuals', description: 'How-tos', settings: { ...defaultSettings(OFFLINE_EMBEDDER), top_k: 8 }, updated_at: NOW },
      }],
    });
  t.is(outcome.body.workspace_id, undefined);
});

test('given a knowledge base, delete appends KnowledgeBaseDeleted; a second delete is 404 and appends nothing', async (t) => {
  const spec = httpSpec(t, { now: NOW });
  await spec
    .given(knowledgeBaseCreated({ id: 'kb_doomed' }))
    .when({ method: 'DELETE', path: '/v1/knowledge-bases/kb_doomed' })
    .then({ status: 200, body: { id: 'kb_doomed', object: 'knowledge_base.deleted', deleted: true }, events: [{ type: 'KnowledgeBaseDeleted', data: { knowledge_base_id: 'kb_doomed', deleted_at: NOW } }] });
  await spec.when({ method: 'DELETE', path: '/v1/knowledge-bases/kb_doomed' }).then({ status: 404, bodyMatches: { error: { code: 'knowledge_base_not_found' } }, events: [] });
});

test('given another workspace’s knowledge base, reading it is 404 and it is absent from the list', async (t) => {
  const spec = httpSpec(t);
  await spec
    .given(knowledgeBaseCreated({ id: 'kb_theirs', workspaceId: 'other-team' }))
    .when({ method: 'GET', path: '/v1/knowledge-bases/kb_theirs' })
    .then({ status: 404, bodyMatches: { error: { code: 'knowledge_base_not_found' } }, events: [] });
  await spec.when({ method: 'GET', path: '/v1/knowledge-bases' }).then({ status: 200, bodyMatches: { object: 'list', data: [] } });
});

test('create appends KnowledgeBaseCreated in the key’s workspace, its settings defaulted', async (t) => {
  const { body } = await httpSpec(t, { now: NOW })
    .when({ method: 'POST', path: '/v1/knowledge-bases', json: { name: 'Handbook', settings: { recall: { graph: true } } } })
    .then({
      status: 201,
      headers: { etag: '"0"' },
      eventsMatch: [{
        type: 'KnowledgeBaseCreated',
        data: { workspace_id: 'default', name: 'Handbook', description: null, settings: { ...defaultSettings(OFFLINE_EMBEDDER), recall: { vector: true, keyword: true, graph: true } }, created_at: NOW },
      }],
    });
  t.regex(body.id, /^kb_/);
});
