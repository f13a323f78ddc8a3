import anyTest, { type TestFn } from 'ava';
import { settledDocument } from '../helpers/documents.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';

// Issue 44 item 4 and 5's retention: `as_of` answers from the versions current then; keep_versions purges.

const test = anyTest as TestFn<{ server: TestServer }>;
test.before(async (t) => {
  t.context.server = await startServer();
});
test.after.always((t) => t.context.server?.close());

const SHARED = [
  '## Warranty\n\nThe Vantor blender carries a warranty of two years from the date of purchase.',
  '## Cleaning\n\nRinse the Vantor blender jug with warm water after every use and dry it upside down.',
  '## Safety\n\nNever run the Vantor blender empty: the blades wear out and the motor overheats.',
];
const policy = (refund: string) => ['# Vantor blender policy', `## Refunds\n\nThe refund window for the Vantor blender is ${refund} from delivery.`, ...SHARED].join('\n\n');
const QUESTION = 'What is the refund window for the Vantor blender?';

async function ok(server: TestServer, method: string, path: string, json?: unknown, status = 200) {
  const res = await server.call(method, path, json === undefined ? {} : { json });
  if (res.status !== status) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A knowledge base with version 1 then version 2 of one document, and a moment when version 1 answered. */
async function twoVersions(server: TestServer, settings: Record<string, unknown> = {}) {
  const kb = (await ok(server, 'POST', '/v1/knowledge-bases', { name: 'As of', settings: { chunking: { max_tokens: 32, overlap_tokens: 0 }, ...settings } }, 201)).id;
  const before = new Date().toISOString();
  await pause(5);
  const doc = (await ok(server, 'POST', `/v1/knowledge-bases/${kb}/documents`, { name: 'policy.md', text: policy('thirty days') }, 202)).data[0];
  await settledDocument(server, kb, doc.id);
  await pause(5);
  const then = new Date().toISOString();
  await pause(5);
  await ok(server, 'POST', `/v1/knowledge-bases/${kb}/documents`, { name: 'policy.md', text: policy('fourteen days') }, 202);
  await settledDocument(server, kb, doc.id);
  return { kb, doc: doc.id as string, before, then };
}

test('as_of a time version 1 answered: both search routes answer from version 1, without as_of from version 2', async (t) => {
  const { server } = t.context;
  const { kb, before, then } = await twoVersions(server);
  const now = await ok(server, 'POST', `/v1/knowledge-bases/${kb}/search`, { query: QUESTION });
  t.regex(JSON.stringify(now.data), /fourteen days/);
  t.notRegex(JSON.stringify(now.data), /thirty days/);

  const past = await ok(server, 'POST', `/v1/knowledge-bases/${kb}/search`, { query: QUESTION, as_of: then });
  t.regex(JSON.stringify(past.data), /thirty days/, 'the replaced text answers as of its time');
  t.notRegex(JSON.stringify(past.data), /fourteen days/, 'nothing of the later version');
  t.true(past.data.length > 0 && past.data.every((h: { document_version: number }) => h.document_version === 1));
  const across = await ok(server, 'POST', '/v1/search', { query: QUESTION, knowledge_base_ids: [kb], as_of: then });
  t.deepEqual(
    across.data.map((h: { chunk_id: string }) => h.chunk_id),
    past.data.map((h: { chunk_id: string }) => h.chunk_id),
  );
  const early = await ok(server, 'POST', `/v1/knowledge-bases/${kb}/search`, { query: QUESTION, as_of: before });
  t.deepEqual(early.data, [], 'before any version was ready the document did not answer');
});

test('as_of that is not an RFC 3339 time, or is in the future, is a 400 invalid_as_of', async (t) => {
  const { server } = t.context;
  const kb = (await ok(server, 'POST', '/v1/knowledge-bases', { name: 'Bad as of' }, 201)).id;
  for (const as_of of ['yesterday', '2026-01-01', new Date(Date.now() + 3_600_000).toISOString()]) {
    const res = await server.call('POST', `/v1/knowledge-bases/${kb}/search`, { json: { query: QUESTION, as_of } });
    t.is(res.status, 400, as_of);
    t.like(res.body.error, { code: 'invalid_as_of', param: 'as_of' });
    t.regex(res.body.error.message, /\.$/);
  }
});

test('keep_versions: 1 purges version 1 once version 2 answers; its content and as_of its time are 410 version_purged', async (t) => {
  const { server } = t.context;
  const { kb, doc, then } = await twoVersions(server, { keep_versions: 1 });
  let history: { data: { version: number; status: string }[] } = { data: [] };
  for (let i = 0; i < 200 && history.data[0]?.status !== 'purged'; i++) {
    history = await ok(server, 'GET', `/v1/knowledge-bases/${kb}/documents/${doc}/versions`);
    await pause(20);
  }
  t.deepEqual(history.data.map((v) => [v.version, v.status]), [
    [1, 'purged'],
    [2, 'ready'],
  ]);
  const content = await fetch(`${server.url}/v1/knowledge-bases/${kb}/documents/${doc}/versions/1/content`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
  t.is(content.status, 410);
  const gone = ((await content.json()) as any).error;
  t.like(gone, { code: 'version_purged', detail: { document_id: doc, versions: [1] } });
  t.truthy(gone.detail.purged_at);

  const asOf = await server.call('POST', `/v1/knowledge-bases/${kb}/search`, { json: { query: QUESTION, as_of: then } });
  t.is(asOf.status, 410);
  t.like(asOf.body.error, { code: 'version_purged', detail: { document_id: doc, versions: [1], purged_at: gone.detail.purged_at } });
  const current = await ok(server, 'POST', `/v1/knowledge-bases/${kb}/search`, { query: QUESTION });
  t.regex(JSON.stringify(current.data), /fourteen days/, 'the current version answers as before');
});

test('keep_versions must be an integer of at least 1, or null', async (t) => {
  const { server } = t.context;
  t.is((await server.call('POST', '/v1/knowledge-bases', { json: { name: 'Keep 0', settings: { keep_versions: 0 } } })).status, 400);
  const kb = await ok(server, 'POST', '/v1/knowledge-bases', { name: 'Keep 3', settings: { keep_versions: 3 } }, 201);
  t.is(kb.settings.keep_versions, 3);
  const patched = await ok(server, 'PATCH', `/v1/knowledge-bases/${kb.id}`, { settings: { keep_versions: null } });
  t.is(patched.settings.keep_versions, null);
});

test('chat (beside knowledge_base_id) and responses (in the file_search tool) take as_of and cite the version current then', async (t) => {
  const { server } = t.context;
  const { kb, then } = await twoVersions(server);
  const chat = await ok(server, 'POST', '/v1/chat/completions', { model: 'kbqa-extractive', knowledge_base_id: kb, as_of: then, messages: [{ role: 'user', content: QUESTION }] });
  t.regex(JSON.stringify(chat.citations), /thirty days/);
  t.notRegex(JSON.stringify(chat), /fourteen days/);
  t.true(chat.citations.length > 0 && chat.citations.every((c: { document_version: number }) => c.document_version === 1));
  const responses = await ok(server, 'POST', '/v1/responses', {
    model: 'kbqa-extractive',
    input: QUESTION,
    tools: [{ type: 'file_search', vector_store_ids: [kb], as_of: then }],
    include: ['file_search_call.results'],
  });
  t.regex(JSON.stringify(responses), /thirty days/);
  t.notRegex(JSON.stringify(responses), /fourteen days/);
  const bad = await server.call('POST', '/v1/chat/completions', { json: { model: 'kbqa-extractive', knowledge_base_id: kb, as_of: 'soon', messages: [{ role: 'user', content: QUESTION }] } });
  t.like(bad.body.error, { code: 'invalid_as_of', param: 'as_of' });
});
