import anyTest, { type TestFn } from 'ava';
import { settledDocument } from '../helpers/documents.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Issue 44, item 5: a document's history a person can read: what changed between two versions, and restoring one.

const test = anyTest as TestFn<{ server: TestServer; kb: string; doc: string }>;

const SECTIONS = [
  '## Warranty\n\nThe Zorblax kettle carries a warranty of two years from the date of purchase.',
  '## Cleaning\n\nDescale the Zorblax kettle monthly with a mild citric solution and rinse it twice.',
  '## Safety\n\nNever operate the Zorblax kettle without water: the heating plate overheats quickly.',
];
const policy = (refund: string, sections = SECTIONS) => ['# Zorblax kettle policy', `## Refunds\n\nThe refund window for the Zorblax kettle is ${refund} from delivery.`, ...sections].join('\n\n');
const V1 = policy('thirty days');
const V2 = policy('fourteen days');
// Version 3: the safety section gone, one on shipping in its place.
const V3 = policy('fourteen days', [SECTIONS[0]!, SECTIONS[1]!, '## Shipping\n\nOrders ship within three working days from the central warehouse in Rotterdam.']);

async function ok(server: TestServer, method: string, path: string, json?: unknown, status = 200) {
  const res = await server.call(method, path, json === undefined ? {} : { json });
  if (res.status !== status) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

test.before(async (t) => {
  const server = (t.context.server = await startServer());
  const kb = (await ok(server, 'POST', '/v1/knowledge-bases', { name: 'History', settings: { chunking: { max_tokens: 32, overlap_tokens: 0 } } }, 201)).id;
  const doc = (await ok(server, 'POST', `/v1/knowledge-bases/${kb}/documents`, { name: 'policy.md', text: V1 }, 202)).data[0].id;
  await settledDocument(server, kb, doc);
  for (const text of [V2, V3]) {
    await ok(server, 'POST', `/v1/knowledge-bases/${kb}/documents/${doc}/versions`, { text }, 201);
    await settledDocument(server, kb, doc);
  }
  Object.assign(t.context, { kb, doc });
});
test.after.always((t) => t.context.server?.close());

test.serial('a one-chunk edit shows exactly one changed chunk, with its text and page before and after', async (t) => {
  const { server, kb, doc } = t.context;
  const diff = await ok(server, 'GET', `/v1/knowledge-bases/${kb}/documents/${doc}/versions/2/diff?against=1`);
  t.like(diff, { object: 'document.version_diff', document_id: doc, version: 2, against: 1, added: [], removed: [] });
  t.is(diff.changed.length, 1);
  const [{ before, after }] = diff.changed;
  t.regex(before.text, /thirty days/);
  t.regex(after.text, /fourteen days/);
  t.is(before.page, 1);
  t.is(after.page, 1);
  t.not(before.chunk_id, after.chunk_id, 'the edited chunk has a new content id');
  const history = await ok(server, 'GET', `/v1/knowledge-bases/${kb}/documents/${doc}/versions`);
  t.is(diff.unchanged, history.data[1].chunks - 1);
  // `against` defaults to the version before.
  t.deepEqual(await ok(server, 'GET', `/v1/knowledge-bases/${kb}/documents/${doc}/versions/2/diff`), diff);
});

test.serial('a section replaced by another: one chunk removed and one added; against any older version', async (t) => {
  const { server, kb, doc } = t.context;
  const diff = await ok(server, 'GET', `/v1/knowledge-bases/${kb}/documents/${doc}/versions/3/diff`);
  t.like(diff, { version: 3, against: 2, changed: [] });
  t.is(diff.removed.length, 1);
  t.regex(diff.removed[0].text, /heating plate/);
  t.is(diff.added.length, 1);
  t.regex(diff.added[0].text, /Rotterdam/);
  const far = await ok(server, 'GET', `/v1/knowledge-bases/${kb}/documents/${doc}/versions/3/diff?against=1`);
  t.is(far.changed.length, 1);
  t.deepEqual([far.added.length, far.removed.length], [1, 1]);
  // Backwards works too: what version 1 has that version 3 lacks is "added" from 3 to 1.
  const back = await ok(server, 'GET', `/v1/knowledge-bases/${kb}/documents/${doc}/versions/1/diff?against=3`);
  t.regex(back.added[0].text, /heating plate/);
});

test.serial('a diff names existing versions only', async (t) => {
  const { server, kb, doc } = t.context;
  const base = `/v1/knowledge-bases/${kb}/documents/${doc}/versions`;
  t.like(await server.call('GET', `${base}/9/diff`), { status: 404, body: { error: { code: 'document_version_not_found' } } });
  t.like(await server.call('GET', `${base}/2/diff?against=9`), { status: 404, body: { error: { code: 'document_version_not_found' } } });
  t.is((await server.call('GET', `${base}/1/diff`)).status, 404, 'version 1 has none before it');
  t.is((await server.call('GET', `${base}/x/diff`)).status, 400);
  t.is((await server.call('GET', `${base}/2/diff?against=0`)).status, 400);
  t.is((await server.call('GET', `/v1/knowledge-bases/${kb}/documents/doc_missing/versions/2/diff`)).status, 404);
});

test.serial('restore makes a new version with the old bytes, uploaded by the caller; once ready it answers with the old text; again, nothing new', async (t) => {
  const { server, kb, doc } = t.context;
  const restored = await ok(server, 'POST', `/v1/knowledge-bases/${kb}/documents/${doc}/versions/1/restore`, undefined, 201);
  t.like(restored, { id: doc, version: 4 });
  t.like(await settledDocument(server, kb, doc), { status: 'ready', version: 4, current_version: 4 });
  const history = (await ok(server, 'GET', `/v1/knowledge-bases/${kb}/documents/${doc}/versions`)).data;
  t.is(history.length, 4);
  t.like(history[3], { version: 4, sha256: history[0].sha256, size: history[0].size, name: 'policy.md', current: true });
  t.is(typeof history[3].uploaded_by, 'string');
  t.is(history[3].uploaded_by, history[0].uploaded_by, 'the same key made both here');
  const content = await server.call('GET', `/v1/knowledge-bases/${kb}/documents/${doc}/versions/4/content`);
  t.is(content.status, 200);
  const search = await ok(server, 'POST', `/v1/knowledge-bases/${kb}/search`, { query: 'What is the refund window for the Zorblax kettle?' });
  t.regex(JSON.stringify(search.data), /thirty days/);
  t.notRegex(JSON.stringify(search.data), /fourteen days|Rotterdam/);
  t.true(search.data.every((h: { document_version: number }) => h.document_version === 4));

  const again = await ok(server, 'POST', `/v1/knowledge-bases/${kb}/documents/${doc}/versions/4/restore`);
  t.like(again, { id: doc, version: 4 });
  t.like(await ok(server, 'POST', `/v1/knowledge-bases/${kb}/documents/${doc}/versions/1/restore`), { version: 4 }, 'version 1’s bytes are the newest already');
  t.is((await server.call('POST', `/v1/knowledge-bases/${kb}/documents/${doc}/versions/9/restore`)).status, 404);
  t.is((await server.call('POST', `/v1/knowledge-bases/${kb}/documents/${doc}/versions/0/restore`)).status, 400);
});
