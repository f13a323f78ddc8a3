import test from 'ava';
import { settledDocument, uploadedFileId } from '../helpers/documents.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

/**
 * What a request causes, not only what it reads (issue 30): a key limited to knowledge base A
 * changes nothing of B through a side effect, and whatever an allowed key builds from B's text
 * (a response, a conversation's items, a rated chat) is B's too, whatever it searched. The access
 * matrix checks the same for every route (access-matrix.http.test.ts); these are the probe's
 * holes, one test each.
 */

let server: TestServer;
type Kb = { id: string; documentId: string; text: string; marker: string };
let a: Kb;
let b: Kb;
/** Keys limited to A: one that writes, one that reads. */
let writerA: string;
let readerA: string;

const QUESTION = 'What is the vault code of the archive?';

async function ok(method: string, path: string, json?: unknown, key?: string) {
  const res = await server.call(method, path, { json, ...(key && { key }) });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function plant(label: string): Promise<Kb> {
  const marker = `zq${label}${Math.random().toString(36).slice(2, 8)}`;
  const kb = await ok('POST', '/v1/knowledge-bases', { name: `archive ${label}` });
  const text = `# The archive\n\nThe vault code of the archive is ${marker}.\n`;
  const [doc] = (await ok('POST', `/v1/knowledge-bases/${kb.id}/documents`, { name: `vault-${label}.md`, text })).data;
  await settledDocument(server, kb.id, doc.id);
  return { id: kb.id, documentId: doc.id, text, marker };
}

const uploadFile = (key: string, name: string, text: string) => uploadedFileId(server.url, key, name, text);

const respond = (kbId: string, extra: Record<string, unknown> = {}) => ({
  model: 'kbqa-extractive',
  input: QUESTION,
  tools: [{ type: 'file_search', vector_store_ids: [kbId] }],
  ...extra,
});

test.before(async () => {
  server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0' });
  a = await plant('a');
  b = await plant('b');
  writerA = (await ok('POST', '/v1/api-keys', { name: 'writer of A', scopes: ['write'], knowledge_base_ids: [a.id] })).secret;
  readerA = (await ok('POST', '/v1/api-keys', { name: 'reader of A', scopes: ['read'], knowledge_base_ids: [a.id] })).secret;
});
test.after.always(() => server?.close());

test.serial("deleting a file with another knowledge base's bytes leaves that knowledge base's document alone", async (t) => {
  // The same bytes in A too: the file's effect on A, which the key may write, still happens.
  const [twinInA] = (await ok('POST', `/v1/knowledge-bases/${a.id}/documents`, { name: 'copy-of-b.md', text: b.text })).data;
  await settledDocument(server, a.id, twinInA.id);
  const fileId = await uploadFile(writerA, 'copy.md', b.text);
  const deleted = await server.call('DELETE', `/v1/files/${fileId}`, { key: writerA });
  t.is(deleted.status, 200);
  const inB = await server.call('GET', `/v1/knowledge-bases/${b.id}/documents/${b.documentId}`);
  t.is(inB.status, 200, "B's document is still there");
  t.is(inB.body.status, 'ready');
  t.true((await server.call('GET', `/v1/knowledge-bases/${b.id}/documents/${b.documentId}/chunks`)).body.data.length > 0, "B's passages are still there");
  t.is((await server.call('GET', `/v1/knowledge-bases/${a.id}/documents/${twinInA.id}`)).status, 404, "A's copy went with the file");
});

test.serial("a response quoted into a conversation by item_reference brings its knowledge base's provenance along", async (t) => {
  const fromB = await ok('POST', '/v1/responses', respond(b.id));
  t.true(JSON.stringify(fromB).includes(b.marker));
  const message = fromB.output.find((o: { type: string }) => o.type === 'message');
  const conv = await ok('POST', '/v1/conversations', {});
  await ok('POST', '/v1/responses', respond(a.id, { conversation: conv.id, input: [{ type: 'item_reference', id: message.id }, { role: 'user', content: QUESTION }] }));
  const items = await server.call('GET', `/v1/conversations/${conv.id}/items`, { key: readerA });
  t.is(items.status, 403, JSON.stringify(items.body).slice(0, 300));
  t.false(JSON.stringify(items.body).includes(b.marker));
  // Those who may read both still read it.
  t.true(JSON.stringify((await server.call('GET', `/v1/conversations/${conv.id}/items?order=asc`)).body).includes(b.marker));
});

test.serial("a response that continues a conversation over B while searching A is B's too", async (t) => {
  const conv = await ok('POST', '/v1/conversations', {});
  await ok('POST', '/v1/chat/completions', { model: 'kbqa-extractive', knowledge_base_id: b.id, conversation: conv.id, messages: [{ role: 'user', content: QUESTION }] });
  const continued = await ok('POST', '/v1/responses', respond(a.id, { conversation: conv.id, input: 'And again?' }));
  const read = await server.call('GET', `/v1/responses/${continued.id}`, { key: readerA });
  t.is(read.status, 404, JSON.stringify(read.body).slice(0, 300));
  t.false(JSON.stringify(read.body).includes(b.marker));
  t.is((await server.call('GET', `/v1/responses/${continued.id}/input_items`, { key: readerA })).status, 404);
  t.is((await server.call('GET', `/v1/responses/${continued.id}`)).status, 200);
});

test.serial("a response that continues a previous response over B while searching A is B's too", async (t) => {
  const fromB = await ok('POST', '/v1/responses', respond(b.id));
  const continued = await ok('POST', '/v1/responses', respond(a.id, { previous_response_id: fromB.id, input: 'And again?' }));
  t.is((await server.call('GET', `/v1/responses/${continued.id}`, { key: readerA })).status, 404);
  // Continued once more by the unlimited key while searching A only: the provenance holds on down the chain.
  const again = await ok('POST', '/v1/responses', respond(a.id, { previous_response_id: continued.id, input: 'Once more?' }));
  t.is((await server.call('GET', `/v1/responses/${again.id}`, { key: readerA })).status, 404);
});

test.serial("a chat over a conversation that holds B's text is rated only by keys that may read B", async (t) => {
  const conv = await ok('POST', '/v1/conversations', {});
  await ok('POST', '/v1/chat/completions', { model: 'kbqa-extractive', knowledge_base_id: b.id, conversation: conv.id, messages: [{ role: 'user', content: QUESTION }] });
  const overA = await ok('POST', '/v1/chat/completions', { model: 'kbqa-extractive', knowledge_base_id: a.id, conversation: conv.id, messages: [{ role: 'user', content: 'And in A?' }] });
  const rated = await server.call('POST', `/v1/chat/completions/${overA.id}/feedback`, { key: readerA, json: { rating: 'up' } });
  t.is(rated.status, 403, JSON.stringify(rated.body));
  t.is((await server.call('POST', `/v1/chat/completions/${overA.id}/feedback`, { json: { rating: 'up' } })).status, 201);
});
