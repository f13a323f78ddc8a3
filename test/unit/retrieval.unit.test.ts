import test from 'ava';
import { chatDecider } from '../../src/domain/chat/chat.ts';
import { fitContext, groundedMessages, NOT_COVERED_ANSWER } from '../../src/domain/chat/prompt.ts';
import { fuseByReciprocalRank, RRF_K } from '../../src/domain/retrieval/fusion.ts';
import { entityCandidates, entityWeights } from '../../src/domain/retrieval/graph-query.ts';
import { underHeadings } from '../../src/domain/retrieval/passage-text.ts';
import { recallsFor } from '../../src/app/retrieval/options.ts';
import { defaultSettings } from '../../schemas/knowledge-base-settings.ts';

const list = (recall: 'vector' | 'keyword' | 'graph', ids: string[], score = 0.5) => ({
  recall,
  matches: ids.map((id, i) => ({ id, documentId: `d-${id}`, score: score - i * 0.01 })),
});

test('reciprocal-rank fusion: agreement beats a single first place; 1 means first everywhere', (t) => {
  const fused = fuseByReciprocalRank([list('vector', ['a', 'b', 'c']), list('keyword', ['b', 'c', 'a'])]);
  t.deepEqual(fused.map((c) => c.id), ['b', 'a', 'c']);
  const first = fuseByReciprocalRank([list('vector', ['a']), list('keyword', ['a'])]);
  t.is(first[0]!.fused, 1);
  const half = fuseByReciprocalRank([list('vector', ['a']), list('keyword', ['b'])]);
  t.is(half[0]!.fused, 0.5);
  t.is(RRF_K, 60);
});

test('fusion keeps each recall’s score and reports the strongest, clamped to 0..1', (t) => {
  const [c] = fuseByReciprocalRank([
    { recall: 'vector', matches: [{ id: 'a', documentId: 'd', score: -0.3 }] },
    { recall: 'keyword', matches: [{ id: 'a', documentId: 'd', score: 0.7 }] },
  ]);
  t.deepEqual(c!.scores, { vector: 0, keyword: 0.7 });
  t.is(c!.score, 0.7);
  t.deepEqual(fuseByReciprocalRank([]), []);
});

test('recallsFor: an explicit mode wins, hybrid means what the knowledge base enables', (t) => {
  const settings = defaultSettings('m');
  t.deepEqual(recallsFor(undefined, settings), ['vector', 'keyword']);
  t.deepEqual(recallsFor('hybrid', { ...settings, recall: { vector: false, keyword: true, graph: true } }), ['keyword', 'graph']);
  t.deepEqual(recallsFor('graph', settings), ['graph']);
});

test('entity candidates include lower-case word runs; rare entities weigh more', (t) => {
  const candidates = entityCandidates('what is the il-6 level in new york city');
  t.true(candidates.includes('il-6'));
  t.true(candidates.includes('new york city'));
  t.true(candidates.includes('new york'));
  const weights = entityWeights(new Map([['rare', 1], ['common', 50]]), 100);
  t.true(weights.get('rare')! > weights.get('common')!);
});

test('context fits the token budget in rank order, and the first passage always fits', (t) => {
  const passages = [{ text: 'word '.repeat(100) }, { text: 'word '.repeat(100) }, { text: 'short' }];
  t.is(fitContext(passages, 150).length, 1);
  t.is(fitContext(passages, 10).length, 1);
  t.is(fitContext(passages, 1000).length, 3);
  t.deepEqual(fitContext([], 100), []);
});

test('the grounded prompt numbers passages with their place, before the conversation', (t) => {
  const messages = groundedMessages([{ role: 'user', content: 'Q?' }], [{ index: 1, text: 'Alpha.', source: 'a.pdf', page: 3 }, { index: 2, text: 'Beta.' }]);
  t.is(messages.length, 2);
  t.is(messages[0]!.role, 'system');
  t.true(messages[0]!.content.includes('[1] (source: a.pdf, page 3)\nAlpha.'));
  t.true(messages[0]!.content.includes('[2]\nBeta.'));
  t.deepEqual(messages[1], { role: 'user', content: 'Q?' });
  t.regex(NOT_COVERED_ANSWER, /does not cover/);
});

test('a chat is recorded once', (t) => {
  const command = {
    type: 'RecordChat' as const,
    data: {
      chat_id: 'c1',
      workspace_id: 'w',
      api_key_id: 'k',
      knowledge_base_id: null,
      model: 'm',
      stream: false,
      finish_reason: 'stop' as const,
      citations: [],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      latency_ms: { retrieval: 0, first_token: null, total: 1 },
    },
    metadata: { now: '2026-01-01T00:00:00.000Z' },
  };
  const events = chatDecider.decide(command, chatDecider.initialState());
  t.is(events.length, 1);
  t.like(events[0], { type: 'ChatCompleted', data: { completed_at: '2026-01-01T00:00:00.000Z' } });
  t.deepEqual(chatDecider.decide(command, chatDecider.evolve(chatDecider.initialState(), events[0]!)), []);
});

test('a chunk reads under its headings, its own opening heading not repeated', (t) => {
  t.is(underHeadings([], 'Text.'), 'Text.');
  t.is(underHeadings(['Guide', 'Setup'], 'Run it.'), 'Guide › Setup\nRun it.');
  t.is(underHeadings(['Guide', 'Setup'], 'Setup\nRun it.'), 'Guide\nSetup\nRun it.');
  t.is(underHeadings(['Setup'], 'Setup\nRun it.'), 'Setup\nRun it.');
});
