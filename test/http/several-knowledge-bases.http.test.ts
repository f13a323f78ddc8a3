import test from 'ava';
import { sampleKnowledgeBase, type SampleKb } from '../helpers/knowledge-base.ts';
import { settledDocument } from '../helpers/documents.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let a: SampleKb;
let b: { kbId: string; docs: Record<'shelf' | 'aurora' | 'penguins', string> };

const POLAR = {
  shelf: 'The Ross Ice Shelf in Antarctica is several hundred metres thick and floats on the Ross Sea.',
  aurora: 'The aurora australis lights the Antarctic winter sky when solar wind strikes the upper atmosphere.',
  penguins: 'Emperor penguins breed on Antarctic sea ice during the long dark winter.',
};

/** A second knowledge base on Antarctica, its documents carrying numbers to compare. */
async function polarKnowledgeBase() {
  const { body: kb } = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'polar' } });
  const upload = async (name: string, text: string, metadata: Record<string, string | number | boolean>) => {
    const { body } = await server.call('POST', `/v1/knowledge-bases/${kb.id}/documents`, { json: { name, text, metadata } });
    const doc = await settledDocument(server, kb.id, body.data[0].id);
    if (doc.status !== 'ready') throw new Error(`fixture ${name} ${doc.status}`);
    return doc.id as string;
  };
  const shelf = await upload('ross-ice-shelf.md', `# Ross Ice Shelf\n\n${POLAR.shelf}`, { topic: 'geology', year: 2021, reviewed: true });
  const aurora = await upload('aurora.md', `# Aurora\n\n${POLAR.aurora}`, { topic: 'physics', year: 2019 });
  const penguins = await upload('penguins.md', `# Penguins\n\n${POLAR.penguins}`, { topic: 'biology', year: 2024, reviewed: false });
  return { kbId: kb.id as string, docs: { shelf, aurora, penguins } };
}

test.before(async () => {
  server = await startServer();
  a = await sampleKnowledgeBase(server);
  b = await polarKnowledgeBase();
});
test.after.always(() => server?.close());

const search = (body: Record<string, unknown>, key?: string) => server.call('POST', '/v1/search', { json: body, ...(key && { key }) });
const docsOf = (body: { data: { document_id: string }[] }) => [...new Set(body.data.map((h) => h.document_id))].sort();
const sorted = (ids: string[]) => [...ids].sort();

test('a search over two knowledge bases finds passages of both, each naming its own', async (t) => {
  const { status, body } = await search({ query: 'Antarctica Ross Island Ross Ice Shelf', knowledge_base_ids: [a.kbId, b.kbId], top_k: 10 });
  t.is(status, 200);
  t.deepEqual(body.knowledge_base_ids, [a.kbId, b.kbId]);
  const kbOf = new Map(body.data.map((h: { document_id: string; knowledge_base_id: string }) => [h.document_id, h.knowledge_base_id]));
  t.is(kbOf.get(a.docs.volcano), a.kbId);
  t.is(kbOf.get(b.docs.shelf), b.kbId);
  for (const [doc, kb] of kbOf) t.is(kb, Object.values(a.docs).includes(doc as string) ? a.kbId : b.kbId);
  t.true(body.answerable);
  const scores = body.data.map((h: { score: number }) => h.score);
  t.deepEqual(scores, [...scores].sort((x: number, y: number) => y - x), 'the same models embed both: merged by score');
});

test('knowledge_base_id keeps working, alone or on /v1/search; both at once is refused naming the field', async (t) => {
  const one = await search({ query: 'Ross Ice Shelf', knowledge_base_id: b.kbId });
  t.is(one.status, 200);
  t.true(one.body.data.every((h: { knowledge_base_id: string }) => h.knowledge_base_id === b.kbId));
  const old = await server.call('POST', `/v1/knowledge-bases/${b.kbId}/search`, { json: { query: 'Ross Ice Shelf' } });
  t.is(old.body.data[0].knowledge_base_id, b.kbId);
  const both = await search({ query: 'x', knowledge_base_id: a.kbId, knowledge_base_ids: [b.kbId] });
  t.is(both.status, 400);
  t.is(both.body.error.param, 'knowledge_base_ids');
  const none = await search({ query: 'x' });
  t.is(none.status, 400);
  t.is(none.body.error.param, 'knowledge_base_ids');
  const chat = await server.call('POST', '/v1/chat', { json: { model: 'kbqa-extractive', messages: [{ role: 'user', content: 'x' }], knowledge_base_id: a.kbId, knowledge_base_ids: [b.kbId] } });
  t.is(chat.status, 400);
  t.is(chat.body.error.param, 'knowledge_base_ids');
});

test('a key limited to one knowledge base is refused the other, as for one', async (t) => {
  const { body: key } = await server.call('POST', '/v1/api-keys', { json: { name: 'only-a', scopes: ['read'], knowledge_base_ids: [a.kbId] } });
  const alone = await server.call('POST', `/v1/knowledge-bases/${b.kbId}/search`, { json: { query: 'Ross Ice Shelf' }, key: key.secret });
  t.is(alone.status, 403);
  const both = await search({ query: 'Ross Ice Shelf', knowledge_base_ids: [a.kbId, b.kbId] }, key.secret);
  t.is(both.status, alone.status);
  t.is(both.body.error.code, alone.body.error.code);
  t.false(JSON.stringify(both.body).includes('Ice Shelf'));
  const chat = await server.call('POST', '/v1/chat/completions', {
    json: { model: 'kbqa-extractive', messages: [{ role: 'user', content: 'How thick is the Ross Ice Shelf?' }], knowledge_base_ids: [a.kbId, b.kbId] },
    key: key.secret,
  });
  t.is(chat.status, 403);
  const mine = await search({ query: 'Mount Erebus', knowledge_base_ids: [a.kbId] }, key.secret);
  t.is(mine.status, 200);
  const missing = await search({ query: 'x', knowledge_base_ids: [a.kbId, 'kb_does_not_exist'] });
  t.is(missing.status, 404);
});

test('metadata filters: and, or, in, gt on numbers, over both knowledge bases', async (t) => {
  const query = 'Antarctica Antarctic Erebus Ross sourdough turbine winter';
  const ids = [a.kbId, b.kbId];
  const recent = await search({ query, knowledge_base_ids: ids, top_k: 20, filter: { type: 'gt', key: 'year', value: 2020 } });
  t.is(recent.status, 200);
  t.deepEqual(docsOf(recent.body), sorted([b.docs.shelf, b.docs.penguins]), 'a number compares as a number; documents without a year are out');
  const geology = await search({ query, knowledge_base_ids: ids, top_k: 20, filter: { type: 'and', filters: [{ type: 'eq', key: 'topic', value: 'geology' }, { type: 'gte', key: 'year', value: 2000 }] } });
  t.deepEqual(docsOf(geology.body), sorted([b.docs.shelf]));
  const either = await search({
    query,
    knowledge_base_ids: ids,
    top_k: 20,
    filter: { type: 'or', filters: [{ type: 'in', key: 'topic', value: ['cooking', 'physics'] }, { type: 'and', filters: [{ type: 'eq', key: 'reviewed', value: false }, { type: 'lt', key: 'year', value: 2030 }] }] },
  });
  t.deepEqual(docsOf(either.body), sorted([a.docs.bread, b.docs.aurora, b.docs.penguins]));
  const notGeology = await search({ query, knowledge_base_ids: ids, top_k: 20, filter: { type: 'nin', key: 'topic', value: ['geology', 'biology'] } });
  t.deepEqual(docsOf(notGeology.body), sorted([a.docs.bread, a.docs.turbine, b.docs.aurora]));
  const older = await search({ query, knowledge_base_ids: ids, top_k: 20, filter: { metadata: { topic: ['geology', 'cooking'] } } });
  t.deepEqual(docsOf(older.body), sorted([a.docs.volcano, a.docs.bread, b.docs.shelf]), 'the older syntax still works');
  const bad = await search({ query, knowledge_base_ids: ids, filter: { type: 'and', filters: [{ type: 'eq', key: 'topic', value: 'x' }, { type: 'between', key: 'year', value: 1 }] } });
  t.is(bad.status, 400);
  t.is(bad.body.error.param, 'filter.filters.1.type');
});

test('a chat over two knowledge bases cites both, each citation naming its base', async (t) => {
  for (const path of ['/v1/chat/completions', '/v1/chat']) {
    const { status, body } = await server.call('POST', path, {
      json: { model: 'kbqa-extractive', messages: [{ role: 'user', content: 'What is in Antarctica near Ross Island?' }], knowledge_base_ids: [a.kbId, b.kbId] },
    });
    t.is(status, 200, path);
    t.true(body.answerable, path);
    const cited = body.citations.filter((c: { quote: unknown }) => c.quote);
    const kbs = new Set(cited.map((c: { knowledge_base_id: string }) => c.knowledge_base_id));
    t.deepEqual([...kbs].sort(), sorted([a.kbId, b.kbId]), `${path}: ${JSON.stringify(body.citations.map((c: { source: string; quote: unknown }) => [c.source, c.quote]))}`);
    const byDoc = new Map(body.citations.map((c: { document_id: string; knowledge_base_id: string }) => [c.document_id, c.knowledge_base_id]));
    t.is(byDoc.get(a.docs.volcano), a.kbId);
    t.is(byDoc.get(b.docs.shelf), b.kbId);
    if (path === '/v1/chat/completions') t.deepEqual(body.knowledge_base_ids, [a.kbId, b.kbId]);
  }
});

test('a chat filter narrows what it retrieves', async (t) => {
  const { body } = await server.call('POST', '/v1/chat/completions', {
    json: {
      model: 'kbqa-extractive',
      messages: [{ role: 'user', content: 'Which volcano is on Ross Island, and how thick is the Ross Ice Shelf?' }],
      knowledge_base_ids: [a.kbId, b.kbId],
      filter: { type: 'eq', key: 'topic', value: 'geology' },
    },
  });
  t.true(body.context.length > 0);
  t.deepEqual([...new Set(body.context.map((c: { document_id: string }) => c.document_id))].sort(), sorted([a.docs.volcano, b.docs.shelf]));
});
