import test from 'ava';
import OpenAI, { toFile } from 'openai';
import { FACTS, turbinePdf } from '../helpers/knowledge-base.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';

// The official openai client, unmodified, against the Files and Vector Stores APIs.

let server: TestServer;
let client: OpenAI;
test.before(async () => {
  server = await startServer();
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: ADMIN_KEY, maxRetries: 0 });
});
test.after.always(async () => server?.close());

const markdown = (name: string, text: string) => toFile(Buffer.from(text, 'utf8'), name, { type: 'text/markdown' });

test('files: upload, list, retrieve, content, delete', async (t) => {
  const bytes = `# Mount Erebus\n\n${FACTS.volcano}\n`;
  const file = await client.files.create({ file: await markdown('erebus.md', bytes), purpose: 'assistants' });
  t.like(file, { object: 'file', filename: 'erebus.md', purpose: 'assistants', bytes: Buffer.byteLength(bytes), status: 'processed' });
  t.true(Number.isInteger(file.created_at) && file.created_at > 1_600_000_000);
  const other = await client.files.create({ file: await toFile(Buffer.from('{"a":1}\n'), 'batch.jsonl'), purpose: 'batch' });
  t.deepEqual(await client.files.retrieve(file.id), file);
  const content = await client.files.content(file.id);
  t.is(await content.text(), bytes);
  const listed = [];
  for await (const f of client.files.list({ limit: 1 })) listed.push(f.id);
  t.true(listed.includes(file.id) && listed.includes(other.id), 'the cursor pages reach every file');
  const batchOnly = await client.files.list({ purpose: 'batch' });
  t.deepEqual(batchOnly.data.map((f) => f.id), [other.id]);
  t.deepEqual(await client.files.delete(other.id), { id: other.id, object: 'file', deleted: true });
  await t.throwsAsync(client.files.retrieve(other.id), { instanceOf: OpenAI.NotFoundError });
});

test('a vector store made from file_ids is a knowledge base; search filters on attributes', async (t) => {
  const volcano = await client.files.create({ file: await markdown('erebus.md', `# Mount Erebus\n\n${FACTS.volcano}\n\n${FACTS.lake}`), purpose: 'assistants' });
  const bread = await client.files.create({ file: await markdown('sourdough.md', `${FACTS.bread}\n\n${FACTS.starter}`), purpose: 'assistants' });
  const turbine = await client.files.create({ file: await toFile(await turbinePdf(), 'zephyr-9.pdf', { type: 'application/pdf' }), purpose: 'user_data' });

  const store = await client.vectorStores.create({ name: 'facts', file_ids: [volcano.id], metadata: { team: 'geo' }, expires_after: { anchor: 'last_active_at', days: 7 } });
  t.like(store, { object: 'vector_store', name: 'facts', metadata: { team: 'geo' }, expires_after: { anchor: 'last_active_at', days: 7 }, expires_at: null });
  t.true(store.id.startsWith('kb_'), 'the vector store is the knowledge base');
  const kb = await server.call('GET', `/v1/knowledge-bases/${store.id}`);
  t.is(kb.body.name, 'facts');

  const attached = await client.vectorStores.files.createAndPoll(store.id, { file_id: bread.id, attributes: { topic: 'cooking', year: 2021, vegan: true } });
  t.like(attached, { id: bread.id, object: 'vector_store.file', status: 'completed', vector_store_id: store.id, last_error: null, attributes: { topic: 'cooking', year: 2021, vegan: true } });
  const batch = await client.vectorStores.fileBatches.createAndPoll(store.id, { file_ids: [turbine.id], attributes: { topic: 'engineering', year: 2024 } });
  t.like(batch, { object: 'vector_store.files_batch', status: 'completed', vector_store_id: store.id, file_counts: { completed: 1, total: 1, failed: 0 } });
  const again = await client.vectorStores.files.create(store.id, { file_id: bread.id });
  t.is(again.id, bread.id, 'the same file twice is the same document');
  const volcanoFile = await client.vectorStores.files.poll(store.id, volcano.id, { pollIntervalMs: 200 });
  t.is(volcanoFile.status, 'completed');

  const ready = await client.vectorStores.retrieve(store.id);
  t.like(ready, { status: 'completed', file_counts: { completed: 3, in_progress: 0, failed: 0, cancelled: 0, total: 3 } });
  t.true(ready.usage_bytes > 0);
  const files = await client.vectorStores.files.list(store.id, { order: 'asc' });
  t.deepEqual(files.data.map((f) => f.id).sort(), [volcano.id, bread.id, turbine.id].sort());
  const documents = (await server.call('GET', `/v1/knowledge-bases/${store.id}/documents`)).body.data;
  t.deepEqual(documents.map((d: { name: string }) => d.name).sort(), ['erebus.md', 'sourdough.md', 'zephyr-9.pdf']);

  const text = [];
  for await (const part of client.vectorStores.files.content(turbine.id, { vector_store_id: store.id })) text.push(part.text);
  t.regex(text.join('\n'), /78 metres long/);

  const plain = await client.vectorStores.search(store.id, { query: 'How long is a Zephyr-9 blade?', max_num_results: 2 });
  t.is(plain.data[0]!.file_id, turbine.id);
  t.is(plain.data[0]!.filename, 'zephyr-9.pdf');
  t.regex(plain.data[0]!.content[0]!.text, /78 metres/);
  t.like(plain.data[0]!.attributes, { topic: 'engineering', year: 2024 });
  t.true(plain.data.length <= 2);

  const ids = async (filters: OpenAI.VectorStores.VectorStoreSearchParams['filters'], query = 'active volcano yeast flour turbine blade') =>
    new Set((await client.vectorStores.search(store.id, { query, filters, max_num_results: 20 })).data.map((r) => r.file_id));
  t.deepEqual(await ids({ type: 'eq', key: 'topic', value: 'cooking' }), new Set([bread.id]));
  t.deepEqual(await ids({ type: 'gt', key: 'year', value: 2021 }), new Set([turbine.id]));
  t.deepEqual(await ids({ type: 'and', filters: [{ type: 'gte', key: 'year', value: 2021 }, { type: 'eq', key: 'vegan', value: true }] }), new Set([bread.id]));
  t.deepEqual(await ids({ type: 'or', filters: [{ type: 'eq', key: 'topic', value: 'cooking' }, { type: 'eq', key: 'topic', value: 'engineering' }] }), new Set([bread.id, turbine.id]));
  t.deepEqual(await ids({ type: 'nin', key: 'topic', value: ['cooking', 'engineering'] }), new Set([volcano.id]), 'a file without the key meets nin');

  const updated = await client.vectorStores.files.update(volcano.id, { vector_store_id: store.id, attributes: { topic: 'geology', year: 2019 } });
  t.deepEqual(updated.attributes, { topic: 'geology', year: 2019 });
  t.deepEqual(await ids({ type: 'lt', key: 'year', value: 2021 }), new Set([volcano.id]), 'filters see new attributes at once');
  t.deepEqual(await ids({ type: 'eq', key: 'topic', value: 'geology' }), new Set([volcano.id]));

  // The client's page keeps only `data`: the rewritten query is read from the body itself.
  const response = await client.vectorStores.search(store.id, { query: 'What is the southernmost active volcano?', rewrite_query: true }).asResponse();
  const page = (await response.json()) as { object: string; search_query: string[]; data: { file_id: string }[]; has_more: boolean };
  t.is(page.object, 'vector_store.search_results.page');
  t.false(page.search_query[0]!.toLowerCase().includes('what'), 'question words are dropped');
  t.regex(page.search_query[0]!, /southernmost/);
  t.is(page.data[0]!.file_id, volcano.id);
  t.false(page.has_more);

  const renamed = await client.vectorStores.update(store.id, { name: 'renamed', metadata: { team: 'all' } });
  t.like(renamed, { name: 'renamed', metadata: { team: 'all' }, expires_after: { days: 7 } });
  const stores = await client.vectorStores.list();
  t.true(stores.data.some((s) => s.id === store.id && s.name === 'renamed'));

  t.deepEqual(await client.vectorStores.files.delete(volcano.id, { vector_store_id: store.id }), { id: volcano.id, object: 'vector_store.file.deleted', deleted: true });
  await t.throwsAsync(client.vectorStores.files.retrieve(volcano.id, { vector_store_id: store.id }), { instanceOf: OpenAI.NotFoundError });
  t.is((await client.files.retrieve(volcano.id)).id, volcano.id, 'detaching keeps the file');
  // Deleting the file deletes the documents it became.
  await client.files.delete(bread.id);
  t.deepEqual((await client.vectorStores.files.list(store.id)).data.map((f) => f.id), [turbine.id]);

  t.deepEqual(await client.vectorStores.delete(store.id), { id: store.id, object: 'vector_store.deleted', deleted: true });
  await t.throwsAsync(client.vectorStores.retrieve(store.id), { instanceOf: OpenAI.NotFoundError });
});

test("a file no parser can read fails as the document does, with last_error", async (t) => {
  const broken = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(300, 0x41)]);
  const file = await client.files.create({ file: await toFile(broken, 'broken.pdf', { type: 'application/pdf' }), purpose: 'assistants' });
  const store = await client.vectorStores.create({ name: 'broken' });
  const attached = await client.vectorStores.files.createAndPoll(store.id, { file_id: file.id });
  t.is(attached.status, 'failed');
  t.is(attached.last_error?.code, 'invalid_file');
  t.true((attached.last_error?.message.length ?? 0) > 0);
  const counts = (await client.vectorStores.retrieve(store.id)).file_counts;
  t.like(counts, { failed: 1, total: 1 });
  const jsonl = await client.files.create({ file: await toFile(Buffer.from('\u0000\u0001\u0002binary'), 'data.bin'), purpose: 'batch' });
  const refused = await t.throwsAsync(client.vectorStores.files.create(store.id, { file_id: jsonl.id }), { instanceOf: OpenAI.BadRequestError });
  t.is(refused.code, 'unsupported_file');
});

test('keys: a key limited to some knowledge bases sees only those vector stores and its own files; read keys cannot write', async (t) => {
  const mine = await client.vectorStores.create({ name: 'mine' });
  const theirs = await client.vectorStores.create({ name: 'theirs' });
  const adminFile = await client.files.create({ file: await markdown('a.md', 'admin bytes'), purpose: 'assistants' });
  const limited = (await server.call('POST', '/v1/api-keys', { json: { name: 'limited', scopes: ['read', 'write'], knowledge_base_ids: [mine.id] } })).body.secret as string;
  const reader = (await server.call('POST', '/v1/api-keys', { json: { name: 'reader', scopes: ['read'] } })).body.secret as string;
  const asLimited = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: limited, maxRetries: 0 });
  const asReader = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: reader, maxRetries: 0 });

  t.deepEqual((await asLimited.vectorStores.list()).data.map((s) => s.id), [mine.id]);
  await t.throwsAsync(asLimited.vectorStores.retrieve(theirs.id), { instanceOf: OpenAI.PermissionDeniedError });
  await t.throwsAsync(asLimited.vectorStores.create({ name: 'new' }), { instanceOf: OpenAI.PermissionDeniedError });
  await t.throwsAsync(asLimited.files.retrieve(adminFile.id), { instanceOf: OpenAI.NotFoundError });
  const own = await asLimited.files.create({ file: await markdown('own.md', 'limited bytes'), purpose: 'assistants' });
  t.deepEqual((await asLimited.files.list()).data.map((f) => f.id), [own.id]);
  await t.throwsAsync(asLimited.vectorStores.files.create(theirs.id, { file_id: own.id }), { instanceOf: OpenAI.PermissionDeniedError });
  t.is((await asLimited.vectorStores.files.create(mine.id, { file_id: own.id })).id, own.id);

  t.true((await asReader.vectorStores.list()).data.some((s) => s.id === theirs.id));
  await t.throwsAsync(asReader.vectorStores.create({ name: 'x' }), { instanceOf: OpenAI.PermissionDeniedError });
  await t.throwsAsync(asReader.files.create({ file: await markdown('r.md', 'reader'), purpose: 'assistants' }), { instanceOf: OpenAI.PermissionDeniedError });
  await t.throwsAsync(asReader.files.delete(adminFile.id), { instanceOf: OpenAI.PermissionDeniedError });
  t.is((await asReader.files.retrieve(adminFile.id)).id, adminFile.id);
});
