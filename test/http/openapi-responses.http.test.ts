import anyTest, { type TestFn } from 'ava';
import { describeApi } from '../../src/capabilities/describe-api.ts';
import { VERSION } from '../../src/main.ts';
import { settledDocument } from '../helpers/documents.ts';
import { FACTS } from '../helpers/knowledge-base.ts';
import { Api, type Doc } from '../helpers/openapi-api.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Every response of the real app, checked against the served OpenAPI document (see openapi-api.ts).

const test = anyTest as TestFn<{ server: TestServer; doc: Doc; api: Api; kbId: string; docs: { erebus: string; bread: string } }>;

test.before(async (t) => {
  const server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '1000', KBQA_MAX_JSON_KB: '8' });
  const doc = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as Doc;
  const api = new Api(server.url, doc);
  const { body: kb } = await api.call('POST', '/v1/knowledge-bases', { json: { name: 'Facts', settings: { top_k: 3 } } });
  const upload = async (name: string, text: string) => (await api.call('POST', `/v1/knowledge-bases/${kb.id}/documents`, { json: { name, text, metadata: { lang: 'en' } } })).body.data[0].id as string;
  const erebus = await upload('erebus.md', `# Mount Erebus\n\n${FACTS.volcano}\n\n## Lava lake\n\n${FACTS.lake}`);
  const bread = await upload('sourdough.txt', `${FACTS.bread}\n\n${FACTS.starter}`);
  for (const id of [erebus, bread]) t.is((await settledDocument(server, kb.id, id)).status, 'ready');
  t.context = { server, doc, api, kbId: kb.id, docs: { erebus, bread } };
});
test.after.always((t) => t.context.server?.close());

test.serial('the served document is the one `npm run lint:openapi` lints', (t) => {
  t.deepEqual(t.context.doc, JSON.parse(JSON.stringify(describeApi(VERSION))));
});

test.serial('operations, models and API keys match the document', async (t) => {
  const { api } = t.context;
  t.is((await api.call('GET', '/v1/openapi.json', { key: null })).status, 200);
  t.is((await api.call('GET', '/healthz', { key: null })).status, 200);
  t.is((await api.call('GET', '/readyz', { key: null })).status, 200);
  t.is((await api.call('GET', '/metrics', { key: null })).status, 200);
  t.is((await api.call('GET', '/v1/models')).status, 200);
  t.is((await api.call('GET', '/v1/models/kbqa-extractive')).status, 200);
  t.is((await api.call('GET', '/v1/models/no-such-model')).status, 404);
  t.is((await api.call('GET', '/v1/models', { key: null })).status, 401);
  t.is((await api.call('GET', '/v1/models', { key: 'kbqa-not-a-key-0123456789' })).status, 401);

  const created = await api.call('POST', '/v1/api-keys', { json: { name: 'reader', scopes: ['read'] } });
  t.is(created.status, 201);
  t.is((await api.call('GET', '/v1/api-keys?limit=5')).status, 200);
  t.is((await api.call('GET', '/v1/api-keys?limit=0')).status, 400);
  t.is((await api.call('POST', '/v1/knowledge-bases', { key: created.body.secret, json: { name: 'not allowed' } })).status, 403);
  t.is((await api.call('POST', '/v1/api-keys', { key: created.body.secret, json: { name: 'escalate' } })).status, 403);
  t.is((await api.call('DELETE', `/v1/api-keys/${created.body.id}`)).status, 200);
  t.is((await api.call('DELETE', '/v1/api-keys/key_missing')).status, 404);
});

test.serial('knowledge bases, and the 400, 404, 409, 413 and 415 answers, match the document', async (t) => {
  const { api, kbId } = t.context;
  t.is((await api.call('GET', '/v1/knowledge-bases')).status, 200);
  const one = await api.call('GET', `/v1/knowledge-bases/${kbId}`);
  t.is(one.status, 200);
  t.is((await api.call('PATCH', `/v1/knowledge-bases/${kbId}`, { json: { description: 'Volcanoes and bread' }, headers: { 'if-match': one.headers.get('etag')! } })).status, 200);
  t.is((await api.call('PATCH', `/v1/knowledge-bases/${kbId}`, { json: { description: 'stale' }, headers: { 'if-match': one.headers.get('etag')! } })).status, 409);
  t.is((await api.call('GET', '/v1/knowledge-bases/kb_missing')).status, 404);
  t.is((await api.call('POST', '/v1/knowledge-bases', { json: {} })).status, 400);
  t.is((await api.call('POST', '/v1/knowledge-bases', { json: { name: 'x', colour: 'red' } })).status, 400);
  t.is((await api.call('POST', '/v1/knowledge-bases', { raw: '{"name":' })).status, 400);
  t.is((await api.call('POST', '/v1/knowledge-bases', { raw: 'name=x', contentType: 'text/plain' })).status, 415);
  t.is((await api.call('POST', '/v1/knowledge-bases', { json: { name: 'big', description: 'x'.repeat(9000) } })).status, 413);
  const doomed = await api.call('POST', '/v1/knowledge-bases', { json: { name: 'doomed' } });
  t.is(doomed.status, 201);
  t.is((await api.call('DELETE', `/v1/knowledge-bases/${doomed.body.id}`)).status, 200);
});

test.serial('documents: uploads, lists, chunks, events, deletion', async (t) => {
  const { api, kbId, docs } = t.context;
  const base = `/v1/knowledge-bases/${kbId}/documents`;
  const form = new FormData();
  form.append('file', new Blob(['Sourdough starters like a warm kitchen.'], { type: 'text/plain' }), 'kitchen.txt');
  form.append('metadata', JSON.stringify({ topic: 'cooking' }));
  const multipart = await api.call('POST', base, { form });
  t.is(multipart.status, 202);
  t.is((await api.call('POST', base, { raw: 'just text', contentType: 'text/plain' })).status, 415);
  t.is((await api.call('POST', base, { json: { name: '' } })).status, 400);
  t.is((await api.call('GET', `${base}?status=ready&limit=10`)).status, 200);
  t.is((await api.call('GET', `${base}/${docs.erebus}`)).status, 200);
  t.is((await api.call('GET', `${base}/doc_missing`)).status, 404);
  t.is((await api.call('GET', `${base}/${docs.erebus}/chunks?limit=10`)).status, 200);
  const events = await api.call('GET', `${base}/${docs.erebus}/events`);
  t.is(events.status, 200);
  // A ready document: the stream is its state from the read model, then it ends.
  t.regex(events.text, /^event: document\ndata: \{.*"status":"ready"/m);
  await settledDocument(t.context.server, kbId, multipart.body.data[0].id);
  t.is((await api.call('DELETE', `${base}/${multipart.body.data[0].id}`)).status, 200);
  t.is((await api.call('GET', `${base}/${multipart.body.data[0].id}`)).status, 404);
});

test.serial('search and chat, streamed or not, match the document', async (t) => {
  const { api, kbId } = t.context;
  const search = await api.call('POST', `/v1/knowledge-bases/${kbId}/search`, { json: { query: 'Where is Mount Erebus?', explain: true } });
  t.is(search.status, 200);
  t.true(search.body.data.length > 0);
  t.is((await api.call('POST', `/v1/knowledge-bases/${kbId}/search`, { json: { query: '   ' } })).status, 400);

  const ask = { model: 'kbqa-extractive', knowledge_base_id: kbId, messages: [{ role: 'user', content: 'Where is Mount Erebus?' }] };
  const completion = await api.call('POST', '/v1/chat/completions', { json: ask });
  t.is(completion.status, 200);
  t.true(completion.body.citations.length > 0);
  t.false('system_fingerprint' in completion.body, 'OpenAI’s types take a string or nothing, never null');
  const streamed = await api.call('POST', '/v1/chat/completions', { json: { ...ask, stream: true, stream_options: { include_usage: true } } });
  t.is(streamed.status, 200);
  const chunks = streamed.text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: {'))
    .map((frame) => JSON.parse(frame.slice('data: '.length)));
  t.true(chunks.length >= 3);
  t.true(chunks.every((c) => c.object === 'chat.completion.chunk' && !('system_fingerprint' in c)));
  t.true(streamed.text.trimEnd().endsWith('data: [DONE]'));
  t.is((await api.call('POST', '/v1/chat', { json: ask })).status, 200);
  t.is((await api.call('POST', '/v1/chat', { json: { ...ask, stream: true } })).status, 200);
  t.is((await api.call('POST', '/v1/chat/completions', { json: { ...ask, model: 'no-such-model' } })).status, 404);
  t.is((await api.call('POST', '/v1/chat/completions', { json: { ...ask, messages: [] } })).status, 400);
  t.is((await api.call('POST', '/v1/chat/completions', { json: { ...ask, knowledge_base_id: 'kb_missing' } })).status, 404);
  t.is((await api.call('POST', '/v1/chat/completions', { json: { ...ask, tools: [{ type: 'function', function: { name: 'f' } }] } })).status, 400);
  const embed = { model: 'kbqa-hash-embed-512', input: ['Mount Erebus', 'sourdough'] };
  t.is((await api.call('POST', '/v1/embeddings', { json: embed })).status, 200);
  t.is((await api.call('POST', '/v1/embeddings', { json: { ...embed, encoding_format: 'base64' } })).status, 200);
  t.is((await api.call('POST', '/v1/embeddings', { json: { ...embed, dimensions: 64 } })).status, 400);
});

test.serial('responses, streamed or not, stored, read back and deleted, match the document', async (t) => {
  const { api, kbId } = t.context;
  const ask = { model: 'kbqa-extractive', input: 'Where is Mount Erebus?', tools: [{ type: 'file_search', vector_store_ids: [kbId] }], include: ['file_search_call.results'] };
  const created = await api.call('POST', '/v1/responses', { json: ask });
  t.is(created.status, 200);
  t.is(created.body.output[1].content[0].annotations[0].type, 'file_citation');
  const streamed = await api.call('POST', '/v1/responses', { json: { ...ask, stream: true } });
  t.is(streamed.status, 200);
  t.regex(streamed.text, /event: response\.completed\ndata: \{"type":"response\.completed"/);
  t.deepEqual([(await api.call('GET', `/v1/responses/${created.body.id}`)).status, (await api.call('GET', `/v1/responses/${created.body.id}/input_items`)).status], [200, 200]);
  t.is((await api.call('DELETE', `/v1/responses/${created.body.id}`)).status, 200);
  t.is((await api.call('GET', `/v1/responses/${created.body.id}`)).status, 404);
  t.is((await api.call('POST', '/v1/responses', { json: { ...ask, input: [] } })).status, 400);
  // An unknown conversation: the 404 the document declares.
  t.is((await api.call('POST', '/v1/responses', { json: { ...ask, conversation: 'conv_1' } })).status, 404);
});

test.serial('workflows and their runs, in every response mode, match the document', async (t) => {
  const { api, kbId } = t.context;
  const created = await api.call('POST', '/v1/workflows', { json: { name: 'QA', template: 'knowledge-qa', knowledge_base_id: kbId } });
  t.is(created.status, 201);
  const id = created.body.id as string;
  // A name alone is the default graph (201); a template without what it needs is the 400 the document declares.
  t.is((await api.call('POST', '/v1/workflows', { json: { name: 'default graph' } })).status, 201);
  t.is((await api.call('POST', '/v1/workflows', { json: { name: 'no knowledge base', template: 'knowledge-qa' } })).status, 400);
  t.is((await api.call('GET', '/v1/workflows')).status, 200);
  t.is((await api.call('GET', `/v1/workflows/${id}`)).status, 200);
  t.is((await api.call('PUT', `/v1/workflows/${id}`, { json: { name: 'QA v2', graph: created.body.graph } })).status, 200);
  const blocking = await api.call('POST', `/v1/workflows/${id}/run`, { json: { inputs: { question: 'Where is Mount Erebus?' } } });
  t.is(blocking.status, 200);
  t.is(blocking.body.status, 'succeeded');
  const queued = await api.call('POST', `/v1/workflows/${id}/run`, { json: { inputs: { question: 'What feeds a starter?' }, response_mode: 'async' } });
  t.is(queued.status, 202);
  t.is((await api.call('GET', `/v1/workflow-runs/${queued.body.id}`)).status, 200);
  t.is((await api.call('GET', '/v1/workflow-runs/run_missing')).status, 404);
  const streamed = await api.call('POST', `/v1/workflows/${id}/run`, { json: { inputs: { question: 'Where is Mount Erebus?' }, response_mode: 'streaming' } });
  t.is(streamed.status, 200);
  t.regex(streamed.text, /event: workflow_run/);
  t.is((await api.call('POST', `/v1/workflows/${id}/run`, { json: { inputs: {}, response_mode: 'sometime' } })).status, 400);
  t.is((await api.call('DELETE', `/v1/workflows/${id}`)).status, 200);
  t.is((await api.call('GET', `/v1/workflows/${id}`)).status, 404);
});

test.serial('conversations, their items, chat continuing one and feedback match the document', async (t) => {
  const { api, kbId } = t.context;
  const conv = await api.call('POST', '/v1/conversations', { json: { metadata: { a: 'b' }, items: [{ type: 'message', role: 'user', content: 'Hello' }] } });
  const path = `/v1/conversations/${conv.body.id}`;
  const completion = await api.call('POST', '/v1/chat/completions', { json: { model: 'kbqa-extractive', knowledge_base_id: kbId, conversation: conv.body.id, messages: [{ role: 'user', content: 'Hi' }] } });
  const added = await api.call('POST', `${path}/items`, { json: { items: [{ role: 'assistant', content: [{ type: 'output_text', text: 'Noted.' }] }] } });
  const items = (await api.call('GET', `${path}/items?order=asc`)).body.data, answer = `${path}/items/${items[1].id}`;
  const statuses = [conv.status, (await api.call('GET', path)).status, (await api.call('POST', path, { json: { metadata: { a: 'c' } } })).status, completion.status, added.status];
  statuses.push((await api.call('GET', answer)).status, (await api.call('POST', `${answer}/feedback`, { json: { rating: 'up' } })).status);
  for (const id of [completion.body.id, 'chatcmpl-missing']) statuses.push((await api.call('POST', `/v1/chat/completions/${id}/feedback`, { json: { rating: 'down' } })).status);
  for (const [method, at, json] of [['DELETE', `${path}/items/${added.body.data[0].id}`], ['POST', `${path}/items`, { items: [] }], ['DELETE', path], ['GET', path]] as const) {
    statuses.push((await api.call(method, at, { json })).status);
  }
  t.deepEqual([...statuses, items.length], [200, 200, 200, 200, 200, 200, 201, 201, 404, 200, 400, 200, 404, 4]);
});

test.serial('a 429 carries the declared error body', async (t) => {
  const limited = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '1' });
  try {
    const api = new Api(limited.url, t.context.doc);
    t.is((await api.call('GET', '/v1/models')).status, 200);
    const refused = await api.call('GET', '/v1/models');
    t.is(refused.status, 429);
    t.truthy(refused.headers.get('retry-after'));
  } finally {
    await limited.close();
  }
});

test.serial('the MCP endpoint’s answers match the document', async (t) => {
  const { api, kbId } = t.context;
  const mcp = (json: unknown, key?: string | null) => api.call('POST', '/mcp', { key, json, headers: { accept: 'application/json, text/event-stream' } });
  const listed = await mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  t.is(listed.status, 200);
  t.true(listed.body.result.tools.length === 4);
  const searched = await mcp({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: { knowledge_base_id: kbId, query: 'lava lake' } } });
  t.is(searched.body.result.structuredContent.data[0].source, 'erebus.md');
  t.is((await mcp({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, null)).status, 401);
  t.is((await mcp({ id: 4, method: 'tools/list' })).status, 400);
});

test.serial('files and vector stores, and their errors, match the document', async (t) => {
  const { api, server } = t.context;
  const form = new FormData();
  form.append('purpose', 'assistants');
  form.append('file', new Blob([`# Mount Erebus\n\n${FACTS.volcano}\n`], { type: 'text/markdown' }), 'erebus.md');
  const { body: file } = await api.call('POST', '/v1/files', { form });
  t.is((await api.call('GET', '/v1/files?limit=2')).status, 200);
  t.is((await api.call('GET', `/v1/files/${file.id}`)).status, 200);
  t.is((await api.call('GET', `/v1/files/${file.id}/content`)).status, 200);
  t.is((await api.call('GET', '/v1/files/file_missing')).status, 404);
  const { body: store } = await api.call('POST', '/v1/vector_stores', { json: { name: 'store', file_ids: [file.id], metadata: { k: 'v' } } });
  t.is((await api.call('POST', '/v1/vector_stores', { json: { file_ids: ['file_missing'] } })).status, 404);
  t.is((await api.call('GET', '/v1/vector_stores?limit=2')).status, 200);
  t.is((await api.call('POST', `/v1/vector_stores/${store.id}`, { json: { name: 'renamed' } })).status, 200);
  t.is((await api.call('GET', `/v1/vector_stores/${store.id}/files?filter=in_progress`)).status, 200);
  const { body: batch } = await api.call('POST', `/v1/vector_stores/${store.id}/file_batches`, { json: { file_ids: [file.id], attributes: { year: 2020 } } });
  const documentId = (await server.call('GET', `/v1/knowledge-bases/${store.id}/documents`)).body.data[0].id as string;
  t.is((await settledDocument(server, store.id, documentId)).status, 'ready');
  t.is((await api.call('GET', `/v1/vector_stores/${store.id}`)).body.status, 'completed');
  t.is((await api.call('GET', `/v1/vector_stores/${store.id}/files/${file.id}`)).body.status, 'completed');
  t.regex(JSON.stringify((await api.call('GET', `/v1/vector_stores/${store.id}/files/${file.id}/content`)).body.data), /Erebus/);
  t.is((await api.call('GET', `/v1/vector_stores/${store.id}/file_batches/${batch.id}`)).body.status, 'completed');
  t.is((await api.call('GET', `/v1/vector_stores/${store.id}/file_batches/${batch.id}/files`)).status, 200);
  t.is((await api.call('GET', `/v1/vector_stores/${store.id}/file_batches/vsfb_bad`)).status, 404);
  const search = { query: 'Which volcano is the southernmost?', filters: { type: 'eq', key: 'lang', value: 'en' }, max_num_results: 3, rewrite_query: true };
  t.is((await api.call('POST', `/v1/vector_stores/${store.id}/search`, { json: search })).status, 200);
  t.is((await api.call('POST', `/v1/vector_stores/${store.id}/search`, { json: { query: 'x', max_num_results: 51 } })).status, 400);
  t.is((await api.call('POST', `/v1/vector_stores/${store.id}/files`, { json: { file_id: file.id, attributes: { year: 2021 } } })).body.id, file.id);
  t.is((await api.call('POST', `/v1/vector_stores/${store.id}/files/${file.id}`, { json: { attributes: { year: 2022 } } })).body.attributes.year, 2022);
  t.is((await api.call('DELETE', `/v1/vector_stores/${store.id}/files/${file.id}`)).status, 200);
  t.is((await api.call('DELETE', `/v1/files/${file.id}`)).status, 200);
  t.is((await api.call('DELETE', `/v1/vector_stores/${store.id}`)).status, 200);
});

test.serial('the operations this file does not exercise are named', (t) => {
  const all = Object.values(t.context.doc.paths).flatMap((ops) => Object.values(ops as Record<string, { operationId: string }>).map((o) => o.operationId));
  const missed = all.filter((id) => !t.context.api.exercised.has(id));
  if (missed.length > 0) t.log(`not exercised here: ${missed.join(', ')}`);
  t.true(t.context.api.exercised.size >= 25);
});
