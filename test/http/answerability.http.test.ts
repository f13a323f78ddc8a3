import test from 'ava';
import { notCoveredAnswer } from '../../src/domain/chat/not-covered.ts';
import { NOT_COVERED_ANSWER } from '../../src/domain/chat/prompt.ts';
import { settledDocument, uploadFiles } from '../helpers/documents.ts';
import { sampleKnowledgeBase, type SampleKb } from '../helpers/knowledge-base.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let kb: SampleKb;

test.before(async () => {
  server = await startServer();
  kb = await sampleKnowledgeBase(server);
});
test.after.always(() => server?.close());

const OFF_TOPIC = 'Who won the 1998 FIFA World Cup final?';
const COVERED = 'How long is each Zephyr-9 blade?';

const chat = (question: string, kbId = kb.kbId) =>
  server.call('POST', '/v1/chat/completions', { json: { model: 'kbqa-extractive', knowledge_base_id: kbId, messages: [{ role: 'user', content: question }] } });

test('an off-topic question gets "not covered", no citations and answerable false; a covered one is answered', async (t) => {
  const off = await chat(OFF_TOPIC);
  t.is(off.status, 200);
  t.is(off.body.choices[0].message.content, NOT_COVERED_ANSWER);
  t.deepEqual(off.body.citations, []);
  t.is(off.body.answerable, false);
  t.true(off.body.coverage < 0.4, String(off.body.coverage));
  const on = await chat(COVERED);
  t.is(on.body.answerable, true);
  t.true(on.body.coverage >= 0.4);
  t.true(on.body.choices[0].message.content.includes('78 metres'));
  t.true(on.body.citations.length > 0);
});

test('a question of quantity is answered as its plain form is: "how many", "how much" and "how often" are not words a passage must hold', async (t) => {
  // Beside other documents, as a knowledge base is: words it never uses ("many") weigh most.
  const policy = (await sampleKnowledgeBase(server)).kbId;
  const text = [
    '# Returns',
    'The refund window is 14 days from delivery. Refunds go back to the card that paid.',
    '# Support',
    'The support line answers on weekdays. A replacement part costs 30 euros and ships twice a week.',
  ].join('\n\n');
  const uploaded = await uploadFiles(server, policy, [{ name: 'policy.md', bytes: text, type: 'text/markdown' }]);
  t.is((await settledDocument(server, policy, uploaded.body.data[0].id)).status, 'ready');
  for (const [question, expected] of [
    ['What is the refund window?', '14 days'],
    ['How many days is the refund window?', '14 days'],
    ['How much does a replacement part cost?', '30 euros'],
    ['How often does a replacement part ship?', 'twice a week'],
  ] as const) {
    const reply = await chat(question, policy);
    // Every word the question asks about is in the answering sentence, so it covers in full; with
    // "many" counted, the rarest word of all (no chunk has it) was missing, and a larger knowledge
    // base took the share under the gate's 0.4.
    t.is(reply.body.coverage, 1, question);
    t.is(reply.body.answerable, true, question);
    t.true(reply.body.choices[0].message.content.includes(expected), question);
  }
  t.is((await chat(OFF_TOPIC, policy)).body.answerable, false, 'an off-topic question is still refused');
});

test('a question the knowledge base cannot answer is refused in the language it was asked in', async (t) => {
  // The documents are English, and the offline models match words, not meanings across languages:
  // a question in Chinese about them finds nothing to quote (docs/api/chat.md says so).
  const chinese = await chat('Zephyr-9 的叶片有多长？');
  t.is(chinese.body.choices[0].message.content, notCoveredAnswer('zh'));
  t.deepEqual(chinese.body.citations, []);
  const german = await chat('Wer hat das Endspiel der Fußball-Weltmeisterschaft 1998 gewonnen?');
  t.is(german.body.choices[0].message.content, notCoveredAnswer('de'));
  const quick = await server.call('POST', '/v1/chat', { json: { model: 'kbqa-extractive', knowledge_base_id: kb.kbId, messages: [{ role: 'user', content: 'Zephyr-9 的叶片有多长？' }] } });
  t.is(quick.body.content, notCoveredAnswer('zh'));
  t.is((await chat(OFF_TOPIC)).body.choices[0].message.content, NOT_COVERED_ANSWER, 'English stays English');
});

test('/v1/chat and search share the gate: the quick form refuses alike, search keeps its hits and says why', async (t) => {
  const quick = await server.call('POST', '/v1/chat', { json: { model: 'kbqa-extractive', knowledge_base_id: kb.kbId, messages: [{ role: 'user', content: OFF_TOPIC }] } });
  t.is(quick.body.content, NOT_COVERED_ANSWER);
  t.deepEqual(quick.body.citations, []);
  t.is(quick.body.answerable, false);
  const search = await server.call('POST', `/v1/knowledge-bases/${kb.kbId}/search`, { json: { query: OFF_TOPIC, explain: true } });
  t.is(search.status, 200);
  t.is(search.body.answerable, false);
  t.true(search.body.data.length > 0, 'search still returns what it found');
  const fifa = search.body.coverage_terms.find((term: { term: string }) => term.term === 'fifa');
  t.deepEqual(fifa, { term: 'fifa', word: 'FIFA', document_frequency: 0, held: false });
  const worded = await server.call('POST', `/v1/knowledge-bases/${kb.kbId}/search`, { json: { query: 'Does TraceMonkey tune the Zephyr-9 blades?', explain: true } });
  const byTerm = Object.fromEntries(worded.body.coverage_terms.map((term: { term: string; word: string }) => [term.term, term.word]));
  t.like(byTerm, { tracemonkei: 'TraceMonkey', blade: 'blades' }, 'each stem comes with the word as typed');
  const plain = await server.call('POST', `/v1/knowledge-bases/${kb.kbId}/search`, { json: { query: COVERED } });
  t.is(plain.body.answerable, true);
  t.is(plain.body.coverage_terms, undefined, 'the terms come with explain only');
});

test('settings.answerability.min_coverage tunes the gate: 0 answers everything, and a bad value names the field', async (t) => {
  const open = await sampleKnowledgeBase(server, { answerability: { min_coverage: 0 } });
  const answered = await chat(OFF_TOPIC, open.kbId);
  t.is(answered.body.answerable, true, 'the gate is open, so the model decides');
  t.true(answered.body.coverage < 0.4);
  // The offline model finds no sentence for it either, and an answer that cites nothing lists no citations.
  t.deepEqual(answered.body.citations, []);
  const strict = await server.call('PATCH', `/v1/knowledge-bases/${open.kbId}`, { json: { settings: { answerability: { min_coverage: 1 } } } });
  t.is(strict.status, 200);
  t.is(strict.body.settings.answerability.min_coverage, 1);
  t.is((await chat(COVERED, open.kbId)).body.answerable, true, 'every term of the question in one sentence reaches 1');
  t.is((await chat('How long and how heavy is each Zephyr-9 blade?', open.kbId)).body.answerable, false);
  const bad = await server.call('PATCH', `/v1/knowledge-bases/${open.kbId}`, { json: { settings: { answerability: { min_coverage: 2 } } } });
  t.is(bad.status, 400);
  t.is(bad.body.error.param, 'settings.answerability.min_coverage');
});
