import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { settledDocument } from '../helpers/documents.ts';
import { FACTS, sampleKnowledgeBase, type SampleKb } from '../helpers/knowledge-base.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';

/** The MCP endpoint driven by the SDK's own client over streamable HTTP, as Claude Desktop or an agent framework would. */

let server: TestServer;
let kb: SampleKb;
let other: { kbId: string; docId: string };
let keys: { read: string; readA: string; write: string };
let workflowId: string;
const clients: Client[] = [];

test.before(async () => {
  server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0' });
  kb = await sampleKnowledgeBase(server);
  const b = (await server.call('POST', '/v1/knowledge-bases', { json: { name: 'other' } })).body.id as string;
  const up = await server.call('POST', `/v1/knowledge-bases/${b}/documents`, { json: { name: 'harbour.md', text: 'The harbour lighthouse of Brightwater is painted red and white.' } });
  await settledDocument(server, b, up.body.data[0].id);
  other = { kbId: b, docId: up.body.data[0].id };
  const key = async (scopes: string[], knowledge_base_ids: string[] | null = null) =>
    (await server.call('POST', '/v1/api-keys', { json: { name: 'mcp', scopes, knowledge_base_ids } })).body.secret as string;
  keys = { read: await key(['read']), readA: await key(['read'], [kb.kbId]), write: await key(['write']) };
  workflowId = (await server.call('POST', '/v1/workflows', { json: { name: 'QA', template: 'knowledge-qa', knowledge_base_id: kb.kbId } })).body.id;
});
test.after.always(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server?.close();
});

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'kbqa-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

test('the server names itself and lists the four tools with their input schemas', async (t) => {
  const client = await connect(ADMIN_KEY);
  t.is(client.getServerVersion()?.name, 'kbqa');
  const { tools } = await client.listTools();
  t.deepEqual(tools.map((tool) => tool.name).sort(), ['ask', 'list_knowledge_bases', 'run_workflow', 'search']);
  const search = tools.find((tool) => tool.name === 'search')!;
  t.deepEqual(search.inputSchema.required?.sort(), ['knowledge_base_id', 'query']);
  t.truthy(search.inputSchema.properties?.top_k);
});

test('list_knowledge_bases shows what the key may use, and only that', async (t) => {
  const all = await call(await connect(keys.read), 'list_knowledge_bases', {});
  t.falsy(all.isError);
  const ids = (all.structuredContent!.data as { id: string }[]).map((k) => k.id);
  t.true(ids.includes(kb.kbId) && ids.includes(other.kbId));
  const limited = await call(await connect(keys.readA), 'list_knowledge_bases', {});
  t.deepEqual((limited.structuredContent!.data as { id: string }[]).map((k) => k.id), [kb.kbId]);
  t.true(textOf(limited).includes(kb.kbId));
  t.false(textOf(limited).includes(other.kbId));
});

test('search finds the uploaded passage, as text and as structured hits', async (t) => {
  const result = await call(await connect(keys.read), 'search', { knowledge_base_id: kb.kbId, query: 'How long is a Zephyr-9 blade?', top_k: 3 });
  t.falsy(result.isError, textOf(result));
  const hits = result.structuredContent!.data as { document_id: string; page: number; paragraph: string; source: string }[];
  t.true(hits.length > 0 && hits.length <= 3);
  t.like(hits[0], { document_id: kb.docs.turbine, page: 2, source: 'zephyr-9.pdf' });
  t.true(hits[0]!.paragraph.includes('78 metres'));
  t.regex(textOf(result), /^\[1\] zephyr-9\.pdf, page 2/);
  t.true(textOf(result).includes('78 metres'));
});

test('ask answers with citations, in the structured content and under the text', async (t) => {
  const result = await call(await connect(keys.read), 'ask', { knowledge_base_id: kb.kbId, question: 'When did the Erebus lava lake become active?' });
  t.falsy(result.isError, textOf(result));
  const content = result.structuredContent as { answer: string; citations: { index: number; document_id: string; paragraph: string }[]; model: string; answerable: boolean };
  t.true(content.answer.includes('1972'), content.answer);
  t.is(content.model, 'kbqa-extractive');
  t.true(content.answerable);
  const marker = Number(/\[(\d+)\]/.exec(content.answer)![1]);
  const cited = content.citations.find((c) => c.index === marker)!;
  t.is(cited.document_id, kb.docs.volcano);
  t.true(cited.paragraph.includes('1972'));
  t.regex(textOf(result), new RegExp(`Sources:\\n(.*\\n)*\\[${marker}\\] erebus\\.md, page 1 \\(document ${kb.docs.volcano}, version 1\\)`));
  // issue 43 item 11: the citations are what the answer marks, the sources under the text too; every passage given is the context.
  const markers = [...new Set([...content.answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].sort();
  t.deepEqual(content.citations.map((c) => c.index).sort(), markers);
  t.is(textOf(result).split('\n').filter((line) => /^\[\d+\] /.test(line)).length, markers.length);
  const { context } = result.structuredContent as { context: { index: number }[] };
  t.true(context.length >= content.citations.length && content.citations.every((c) => context.some((p) => p.index === c.index)));
});

test('run_workflow runs the workflow and answers with its outputs; a read key may not run one', async (t) => {
  const result = await call(await connect(keys.write), 'run_workflow', { workflow_id: workflowId, inputs: { question: 'What does a sourdough starter need every day?' } });
  t.falsy(result.isError, textOf(result));
  const run = result.structuredContent as { status: string; workflow_id: string; outputs: { answer: string } };
  t.is(run.status, 'succeeded');
  t.is(run.workflow_id, workflowId);
  t.regex(run.outputs.answer, /flour and water/);
  t.true(textOf(result).includes('flour and water'));
  const denied = await call(await connect(keys.read), 'run_workflow', { workflow_id: workflowId, inputs: { question: 'x' } });
  t.true(denied.isError);
  t.regex(textOf(denied), /^insufficient_scope: This API key lacks the 'write' scope\./);
});

test('a key limited to one knowledge base cannot search, ask or read another: tool errors with the API’s codes', async (t) => {
  const client = await connect(keys.readA);
  for (const [name, args] of [
    ['search', { knowledge_base_id: other.kbId, query: 'lighthouse' }],
    ['ask', { knowledge_base_id: other.kbId, question: 'What colour is the lighthouse?' }],
  ] as const) {
    const result = await call(client, name, args);
    t.true(result.isError, name);
    t.regex(textOf(result), /^knowledge_base_not_allowed: /, name);
    t.false(textOf(result).includes('red and white'), name);
  }
  const missing = await call(client, 'search', { knowledge_base_id: 'kb_nope', query: 'x' });
  t.regex(textOf(missing), /^knowledge_base_not_allowed: /, 'the limit is checked before existence, as in the REST API');
  const read = await client.readResource({ uri: `kbqa://knowledge-bases/${other.kbId}/documents/${other.docId}` }).catch((error: Error) => error);
  t.true(read instanceof Error);
  t.regex((read as Error).message, /knowledge_base_not_allowed/);
  const { resources } = await client.listResources();
  t.false(resources.some((r) => r.uri.includes(other.kbId)));
});

test('bad arguments are tool errors the model can read', async (t) => {
  const result = await call(await connect(keys.read), 'search', { knowledge_base_id: kb.kbId, query: 'x', top_k: 1000 });
  t.true(result.isError);
  t.regex(textOf(result), /top_k/);
});

test('documents are resources: their text in chunk order, and their metadata', async (t) => {
  const client = await connect(keys.read);
  const { resourceTemplates } = await client.listResourceTemplates();
  t.deepEqual(resourceTemplates.map((r) => r.uriTemplate).sort(), ['kbqa://knowledge-bases/{kb}/documents/{doc}', 'kbqa://knowledge-bases/{kb}/documents/{doc}/metadata']);
  const uri = `kbqa://knowledge-bases/${kb.kbId}/documents/${kb.docs.volcano}`;
  const text = (await client.readResource({ uri })).contents[0] as { uri: string; mimeType: string; text: string };
  t.is(text.uri, uri);
  t.is(text.mimeType, 'text/plain');
  t.true(text.text.indexOf(FACTS.volcano) >= 0 && text.text.indexOf(FACTS.volcano) < text.text.indexOf(FACTS.lake), text.text);
  const meta = (await client.readResource({ uri: `${uri}/metadata` })).contents[0] as { text: string };
  t.like(JSON.parse(meta.text), { id: kb.docs.volcano, object: 'document', name: 'erebus.md', status: 'ready', knowledge_base_id: kb.kbId });
  const gone = await client.readResource({ uri: `kbqa://knowledge-bases/${kb.kbId}/documents/doc_nope` }).catch((error: Error) => error);
  t.regex((gone as Error).message, /document_not_found/);
});

test.serial('resources/list pages through the documents of every knowledge base the key may read', async (t) => {
  const many = (await server.call('POST', '/v1/knowledge-bases', { json: { name: 'many' } })).body.id as string;
  const uploaded: string[] = [];
  for (let i = 0; i < 52; i++) {
    const { body } = await server.call('POST', `/v1/knowledge-bases/${many}/documents`, { json: { name: `note-${i}.md`, text: `Note number ${i}.` } });
    uploaded.push(body.data[0].id);
  }
  const client = await connect(keys.read);
  const first = await client.listResources();
  t.is(first.resources.length, 50);
  t.truthy(first.nextCursor);
  const second = await client.listResources({ cursor: first.nextCursor! });
  t.falsy(second.nextCursor);
  const uris = [...first.resources, ...second.resources].map((r) => r.uri);
  t.is(new Set(uris).size, uris.length, 'no document twice');
  const expected = [
    ...Object.values(kb.docs).map((d) => `kbqa://knowledge-bases/${kb.kbId}/documents/${d}`),
    `kbqa://knowledge-bases/${other.kbId}/documents/${other.docId}`,
    ...uploaded.map((d) => `kbqa://knowledge-bases/${many}/documents/${d}`),
  ];
  t.deepEqual([...uris].sort(), expected.sort());
  const bad = await client.listResources({ cursor: 'not-a-cursor' }).catch((error: Error) => error);
  t.regex((bad as Error).message, /invalid_cursor/);
});

test('no key is a 401 before any MCP message is read; GET and DELETE are 405 (stateless)', async (t) => {
  const client = new Client({ name: 'kbqa-test', version: '1.0.0' });
  const error = await t.throwsAsync(client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`))));
  t.regex(error!.message, /401|missing_api_key/);
  const raw = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  t.is(raw.status, 401);
  t.is(((await raw.json()) as { error: { code: string } }).error.code, 'missing_api_key');
  for (const method of ['GET', 'DELETE']) {
    const res = await server.call(method, '/mcp', { headers: { accept: 'text/event-stream' } });
    t.is(res.status, 405, method);
    t.is(res.headers.get('allow'), 'POST');
  }
});
