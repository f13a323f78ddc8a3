import anyTest, { type TestFn } from 'ava';
import { settledDocument } from '../helpers/documents.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';

// Issue 44: a document's versions, and only the current one answering on every retrieval route.

const test = anyTest as TestFn<{ server: TestServer; kb: string }>;
test.before(async (t) => {
  t.context.server = await startServer();
  const kb = await t.context.server.call('POST', '/v1/knowledge-bases', { json: { name: 'Versions', settings: { chunking: { max_tokens: 32, overlap_tokens: 0 } } } });
  t.context.kb = kb.body.id;
});
test.after.always((t) => t.context.server?.close());

const SHARED = [
  '## Warranty\n\nThe Zorblax kettle carries a warranty of two years from the date of purchase.',
  '## Cleaning\n\nDescale the Zorblax kettle monthly with a mild citric solution and rinse it twice.',
  '## Safety\n\nNever operate the Zorblax kettle without water: the heating plate overheats quickly.',
  '## Shipping\n\nOrders of the Zorblax kettle ship within three working days from the central warehouse.',
  '## Colours\n\nThe Zorblax kettle comes in graphite, copper and a pale mint finish.',
];
const policy = (refund: string) => ['# Zorblax kettle policy', `## Refunds\n\nThe refund window for the Zorblax kettle is ${refund} from delivery.`, ...SHARED].join('\n\n');
const V1 = policy('thirty days');
const V2 = policy('fourteen days');
const QUESTION = 'What is the refund window for the Zorblax kettle?';
/** Text only version 1 had: after version 2 is ready, no route may return it. */
const STALE = /thirty days/i;

async function ok(server: TestServer, method: string, path: string, json?: unknown, status = 200) {
  const res = await server.call(method, path, json === undefined ? {} : { json });
  if (res.status !== status) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

test.serial('re-uploading a name makes version 2; once ready, every retrieval route answers from it alone', async (t) => {
  const { server, kb } = t.context;
  const first = (await ok(server, 'POST', `/v1/knowledge-bases/${kb}/documents`, { name: 'policy.md', text: V1 }, 202)).data[0];
  t.like(first, { version: 1, current_version: null, version_count: 1 });
  const v1 = await settledDocument(server, kb, first.id);
  t.like(v1, { status: 'ready', version: 1, current_version: 1 });
  const before = await ok(server, 'POST', `/v1/knowledge-bases/${kb}/search`, { query: QUESTION });
  t.regex(JSON.stringify(before.data), STALE, 'version 1 answers while it is current');

  const again = await ok(server, 'POST', `/v1/knowledge-bases/${kb}/documents`, { name: 'policy.md', text: V2 }, 202);
  t.is(again.data[0].id, first.id, 'the same document, not a copy beside it');
  t.is(again.data[0].version, 2);
  const v2 = await settledDocument(server, kb, first.id);
  t.like(v2, { status: 'ready', version: 2, current_version: 2, version_count: 2 });
  const list = await ok(server, 'GET', `/v1/knowledge-bases/${kb}/documents?limit=100`);
  t.is(list.data.filter((d: { name: string }) => d.name === 'policy.md').length, 1);

  // Every route that retrieves: none quotes what only version 1 said, and the new text answers.
  const search = await ok(server, 'POST', `/v1/knowledge-bases/${kb}/search`, { query: QUESTION });
  const across = await ok(server, 'POST', '/v1/search', { query: QUESTION, knowledge_base_ids: [kb] });
  const chat = await ok(server, 'POST', '/v1/chat/completions', { model: 'kbqa-extractive', knowledge_base_id: kb, messages: [{ role: 'user', content: QUESTION }] });
  const responses = await ok(server, 'POST', '/v1/responses', {
    model: 'kbqa-extractive',
    input: QUESTION,
    tools: [{ type: 'file_search', vector_store_ids: [kb] }],
    include: ['file_search_call.results'],
  });
  const vectorStore = await ok(server, 'POST', `/v1/vector_stores/${kb}/search`, { query: QUESTION });
  const wf = await ok(server, 'POST', '/v1/workflows', { name: 'versions', template: 'knowledge-qa', knowledge_base_id: kb }, 201);
  const run = await ok(server, 'POST', `/v1/workflows/${wf.id}/run`, { inputs: { question: QUESTION } });
  const chunks = await ok(server, 'GET', `/v1/knowledge-bases/${kb}/documents/${first.id}/chunks?limit=1000`);
  const answers = { search, across, chat, responses, vectorStore, run, chunks };
  for (const [route, body] of Object.entries(answers)) {
    const text = JSON.stringify(body);
    t.notRegex(text, STALE, `${route} returns nothing only version 1 had`);
    t.regex(text, /fourteen days/i, `${route} answers from version 2`);
  }
  t.true(search.data.every((h: { document_version: number }) => h.document_version === 2));
  t.true(chat.citations.length > 0 && chat.citations.every((c: { document_version: number }) => c.document_version === 2));
  t.is(run.status, 'succeeded');
});

test.serial('the history lists both versions; each version’s bytes come back with its type and name; version 2 re-indexed only what changed', async (t) => {
  const { server, kb } = t.context;
  const doc = (await ok(server, 'GET', `/v1/knowledge-bases/${kb}/documents?limit=100`)).data.find((d: { name: string }) => d.name === 'policy.md');
  const history = await ok(server, 'GET', `/v1/knowledge-bases/${kb}/documents/${doc.id}/versions`);
  t.is(history.object, 'list');
  t.deepEqual(history.data.map((v: { version: number; status: string; current: boolean }) => [v.version, v.status, v.current]), [
    [1, 'superseded', false],
    [2, 'ready', true],
  ]);
  const [one, two] = history.data;
  t.like(one, { name: 'policy.md', size: Buffer.byteLength(V1), reused_chunks: 0 });
  t.is(typeof one.uploaded_by, 'string');
  t.truthy(one.superseded_at);
  t.like(two, { size: Buffer.byteLength(V2), pages: 1 });
  // One paragraph of seven changed: its chunk alone was embedded and indexed again.
  t.is(two.chunks, one.chunks);
  t.is(two.reused_chunks, two.chunks - 1);

  const content = await fetch(`${server.url}/v1/knowledge-bases/${kb}/documents/${doc.id}/versions/1/content`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
  t.is(content.status, 200);
  t.is(await content.text(), V1);
  t.is(content.headers.get('content-type'), 'text/markdown');
  t.regex(content.headers.get('content-disposition') ?? '', /^attachment; filename="policy\.md"/);
  t.is((await server.call('GET', `/v1/knowledge-bases/${kb}/documents/${doc.id}/versions/3/content`)).status, 404);
  t.is((await server.call('GET', `/v1/knowledge-bases/${kb}/documents/${doc.id}/versions/x/content`)).status, 400);
});

test.serial('on_conflict: skip changes nothing, keep_both adds a document, the same bytes again add no version', async (t) => {
  const { server, kb } = t.context;
  const doc = (await ok(server, 'GET', `/v1/knowledge-bases/${kb}/documents?limit=100`)).data.find((d: { name: string }) => d.name === 'policy.md');
  const skipped = await ok(server, 'POST', `/v1/knowledge-bases/${kb}/documents`, { name: 'policy.md', text: policy('ninety days'), on_conflict: 'skip' }, 200);
  t.like(skipped.data[0], { id: doc.id, version: 2, skipped: true });
  const same = await ok(server, 'POST', `/v1/knowledge-bases/${kb}/documents`, { name: 'policy.md', text: V2 }, 202);
  t.like(same.data[0], { id: doc.id, version: 2, deduplicated: true });
  const both = await ok(server, 'POST', `/v1/knowledge-bases/${kb}/documents`, { name: 'policy.md', text: policy('sixty days'), on_conflict: 'keep_both' }, 202);
  t.not(both.data[0].id, doc.id);
  t.is(both.data[0].version, 1);
  await settledDocument(server, kb, both.data[0].id);
  t.is((await ok(server, 'GET', `/v1/knowledge-bases/${kb}/documents/${doc.id}`)).version, 2);
  t.is((await server.call('DELETE', `/v1/knowledge-bases/${kb}/documents/${both.data[0].id}`)).status, 200);
});

test.serial('POST …/versions adds one explicitly (201); a version that fails leaves the current one answering', async (t) => {
  const { server, kb } = t.context;
  const made = (await ok(server, 'POST', `/v1/knowledge-bases/${kb}/documents`, { name: 'faq.md', text: '# FAQ\n\nThe Quillon lamp runs on four batteries.', external_id: 'src-42' }, 202)).data[0];
  await settledDocument(server, kb, made.id);
  const added = await ok(server, 'POST', `/v1/knowledge-bases/${kb}/documents/${made.id}/versions`, { text: '# FAQ\n\nThe Quillon lamp runs on six batteries.' }, 201);
  t.like(added, { id: made.id, version: 2, name: 'faq.md', external_id: 'src-42' });
  t.like(await settledDocument(server, kb, made.id), { status: 'ready', current_version: 2 });
  // Under the same external id a file of another name is the same document.
  const byId = await ok(server, 'POST', `/v1/knowledge-bases/${kb}/documents`, { name: 'faq-renamed.md', text: '# FAQ\n\nThe Quillon lamp runs on eight batteries.', external_id: 'src-42' }, 202);
  t.like(byId.data[0], { id: made.id, version: 3 });
  t.like(await settledDocument(server, kb, made.id), { status: 'ready', current_version: 3, name: 'faq-renamed.md' });

  // A broken PDF as version 4: it fails, and version 3 keeps answering.
  const broken = new FormData();
  broken.append('file', new Blob([new Uint8Array(Buffer.from('%PDF-1.7\nthis is not really a pdf at all\n%%EOF'))]), 'faq.pdf');
  const res = await fetch(`${server.url}/v1/knowledge-bases/${kb}/documents/${made.id}/versions`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_KEY}` }, body: broken });
  t.is(res.status, 201);
  t.like(await settledDocument(server, kb, made.id), { status: 'failed', version: 4, current_version: 3 });
  const search = await ok(server, 'POST', `/v1/knowledge-bases/${kb}/search`, { query: 'How many batteries does the Quillon lamp run on?' });
  t.regex(JSON.stringify(search.data), /eight batteries/);
  t.notRegex(JSON.stringify(search.data), /(four|six) batteries/);
  t.is((await server.call('POST', `/v1/knowledge-bases/${kb}/documents/doc_missing/versions`, { json: { text: 'x' } })).status, 404);
});
