import test from 'ava';
import { FACTS, sampleKnowledgeBase, type SampleKb } from '../helpers/knowledge-base.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let kb: SampleKb;

test.before(async () => {
  server = await startServer();
  kb = await sampleKnowledgeBase(server, { recall: { vector: true, keyword: true, graph: true }, rerank: { enabled: false } });
});
test.after.always(() => server?.close());

const search = (body: Record<string, unknown>, kbId = kb.kbId) => server.call('POST', `/v1/knowledge-bases/${kbId}/search`, { json: body });

test('hybrid search finds the passage and says where it came from', async (t) => {
  const { status, body } = await search({ query: 'How long is a Zephyr-9 blade?', explain: true });
  t.is(status, 200);
  t.is(body.object, 'list');
  t.is(body.mode, 'hybrid');
  const [top] = body.data;
  t.is(top.source, 'zephyr-9.pdf');
  t.is(top.document_id, kb.docs.turbine);
  t.is(top.page, 2, 'the answer is on the PDF’s second page');
  t.true(top.paragraph.includes('78 metres'));
  t.true(top.score > 0 && top.score <= 1);
  t.deepEqual(Object.keys(top.scores).sort(), ['fused', 'graph', 'keyword', 'rerank', 'vector']);
  t.is(top.scores.rerank, null);
  for (const hit of body.data) t.true(hit.score >= 0 && hit.score <= 1);
});

test('every mode answers on its own, and explain is off by default', async (t) => {
  for (const mode of ['vector', 'keyword', 'graph'] as const) {
    const { status, body } = await search({ query: 'Mount Erebus lava lake', mode });
    t.is(status, 200, mode);
    t.is(body.mode, mode);
    t.is(body.data[0]?.document_id, kb.docs.volcano, mode);
    t.is(body.data[0].scores, undefined);
  }
});

test('graph recall reaches chunks through the entities a lower-case question names', async (t) => {
  const { body } = await search({ query: 'what do we know about ross island', mode: 'graph', explain: true });
  t.is(body.data[0]?.document_id, kb.docs.volcano);
  t.true(body.data[0].scores.graph > 0);
});

test('top_k caps the results; score_threshold drops weak ones', async (t) => {
  const one = await search({ query: 'active', top_k: 1 });
  t.is(one.body.data.length, 1);
  const all = await search({ query: 'sourdough starter flour', top_k: 10 });
  t.true(all.body.data.length >= 2);
  const strict = await search({ query: 'sourdough starter flour', top_k: 10, score_threshold: 0.99 });
  t.true(strict.body.data.length < all.body.data.length);
  for (const hit of strict.body.data) t.true(hit.score >= 0.99);
});

test('rerank orders by the reranker and reports its score', async (t) => {
  const { body } = await search({ query: 'How fast must the wind blow for the turbine to reach its rated power?', rerank: true, explain: true });
  t.true(body.rerank);
  t.is(body.data[0].document_id, kb.docs.turbine);
  t.is(body.data[0].score, body.data[0].scores.rerank);
  const scores = body.data.map((h: { score: number }) => h.score);
  t.deepEqual(scores, [...scores].sort((a, b) => b - a));
});

test('filters by document id and by metadata', async (t) => {
  const byId = await search({ query: 'active', filter: { document_ids: [kb.docs.bread] }, top_k: 10 });
  t.true(byId.body.data.length > 0);
  t.true(byId.body.data.every((h: { document_id: string }) => h.document_id === kb.docs.bread));
  const byMeta = await search({ query: 'active', filter: { metadata: { topic: 'geology' } }, top_k: 10 });
  t.true(byMeta.body.data.length > 0);
  t.true(byMeta.body.data.every((h: { document_id: string }) => h.document_id === kb.docs.volcano));
  const anyOf = await search({ query: 'active metres flour', filter: { metadata: { topic: ['cooking', 'engineering'] } }, top_k: 10 });
  t.deepEqual(new Set(anyOf.body.data.map((h: { document_id: string }) => h.document_id)), new Set([kb.docs.bread, kb.docs.turbine]));
  const none = await search({ query: 'active', filter: { metadata: { topic: 'poetry' } } });
  t.deepEqual(none.body.data, []);
});

test.serial('defaults come from the knowledge base settings', async (t) => {
  const { body: kb2 } = await server.call('PATCH', `/v1/knowledge-bases/${kb.kbId}`, { json: { settings: { top_k: 2, recall: { graph: false } } } });
  t.is(kb2.settings.top_k, 2);
  const { body } = await search({ query: 'active volcano flour turbine', explain: true });
  t.is(body.data.length, 2);
  t.true(body.data.every((h: { scores: { graph: null } }) => h.scores.graph === null));
  await server.call('PATCH', `/v1/knowledge-bases/${kb.kbId}`, { json: { settings: { top_k: 5, recall: { graph: true } } } });
});

test('a deleted document disappears from results', async (t) => {
  const { body: doc } = await server.call('POST', `/v1/knowledge-bases/${kb.kbId}/documents`, { json: { name: 'temp.txt', text: 'Quokkas are small marsupials found on Rottnest Island.' } });
  const id = doc.data[0].id;
  const { settledDocument } = await import('../helpers/documents.ts');
  await settledDocument(server, kb.kbId, id);
  t.is((await search({ query: 'quokka marsupials' })).body.data[0]?.document_id, id);
  t.is((await server.call('DELETE', `/v1/knowledge-bases/${kb.kbId}/documents/${id}`)).status, 200);
  t.false((await search({ query: 'quokka marsupials' })).body.data.some((h: { document_id: string }) => h.document_id === id));
});

test('include sends only the parts asked for: no passage, boxes or headings with [], explain data on its own', async (t) => {
  const query = 'How long is a Zephyr-9 blade?';
  const full = await search({ query, explain: true });
  const bare = await search({ query, include: [] });
  t.is(bare.status, 200);
  t.deepEqual(bare.body.data.map((h: { chunk_id: string }) => h.chunk_id), full.body.data.map((h: { chunk_id: string }) => h.chunk_id));
  for (const hit of bare.body.data) t.deepEqual(Object.keys(hit).sort(), ['chunk_id', 'document_id', 'document_version', 'knowledge_base_id', 'object', 'page', 'score', 'source']);
  t.is(bare.body.coverage_terms, undefined);
  t.is(bare.body.coverage, full.body.coverage);
  // The explain data without the passage, though explain is not set; the passage alone, though it is.
  const scoresOnly = await search({ query, include: ['scores', 'coverage_terms'] });
  t.deepEqual(scoresOnly.body.data[0].scores, full.body.data[0].scores);
  t.deepEqual(scoresOnly.body.coverage_terms, full.body.coverage_terms);
  t.is(scoresOnly.body.data[0].paragraph, undefined);
  const text = await search({ query, explain: true, include: ['paragraph'] });
  t.is(text.body.data[0].paragraph, full.body.data[0].paragraph);
  t.is(text.body.data[0].scores, undefined);
  t.is(text.body.data[0].boxes, undefined);
  t.true(JSON.stringify(bare.body).length < JSON.stringify(full.body).length / 2);
  const across = await server.call('POST', '/v1/search', { json: { query, knowledge_base_ids: [kb.kbId], include: ['heading_path'] } });
  t.deepEqual(across.body.data[0].heading_path, full.body.data[0].heading_path);
  t.is(across.body.data[0].paragraph, undefined);
});

test('bad requests name the field; other workspaces’ knowledge bases are not found', async (t) => {
  const cases: [Record<string, unknown>, string][] = [
    [{}, 'query'],
    [{ query: '   ' }, 'query'],
    [{ query: 'x', top_k: 0 }, 'top_k'],
    [{ query: 'x', top_k: 101 }, 'top_k'],
    [{ query: 'x', score_threshold: 1.5 }, 'score_threshold'],
    [{ query: 'x', mode: 'psychic' }, 'mode'],
    [{ query: 'x', filter: { document_ids: 'doc_1' } }, 'filter.document_ids'],
    [{ query: 'x', colour: 'red' }, 'colour'],
    [{ query: 'x', include: ['text'] }, 'include.0'],
  ];
  for (const [body, param] of cases) {
    const res = await search(body);
    t.is(res.status, 400, JSON.stringify(body));
    t.is(res.body.error.param, param, JSON.stringify(body));
  }
  const missing = await search({ query: 'x' }, 'kb_does_not_exist');
  t.is(missing.status, 404);
  t.is(missing.body.error.code, 'knowledge_base_not_found');
  t.is((await server.call('POST', `/v1/knowledge-bases/${kb.kbId}/search`, { json: { query: 'x' }, key: null })).status, 401);
});

test('hostile queries answer 200', async (t) => {
  for (const query of ['"unbalanced', 'NEAR(a b) OR * AND -', '🙂🙃', '東京 タワー', 'x'.repeat(7000), 'the of and']) {
    const { status } = await search({ query });
    t.is(status, 200, query.slice(0, 20));
  }
});

test('facts fixture is searchable by its exact sentence', async (t) => {
  const { body } = await search({ query: FACTS.starter, mode: 'keyword' });
  t.is(body.data[0].paragraph.includes('fed with fresh flour'), true);
});
