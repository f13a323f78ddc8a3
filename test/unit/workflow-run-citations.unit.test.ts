import test from 'ava';
import type { NodeRunDoc } from '../../projections/workflow-runs/index.ts';
import type { Citation } from '../../src/app/retrieval/retrieved-context.ts';
import { retrievedCitations } from '../../src/app/services/workflow-run-citations.ts';

// Which of a run's `citations` output a workflow-backed agent may cite (issue 42, item 11).

const cite = (kb: string, chunk: string, extra: Partial<Citation> = {}): Citation => ({
  index: 1,
  source: `${chunk}.md`,
  page: 1,
  paragraph: `The text of ${chunk}.`,
  document_id: `doc_${chunk}`,
  knowledge_base_id: kb,
  document_version: 1,
  chunk_id: `chk_${chunk}`,
  score: 0.9,
  heading_path: [],
  char_start: 0,
  char_end: 20,
  boxes: [],
  ...extra,
});
const node = (node_type: string, citations: unknown): NodeRunDoc => ({
  node_id: node_type,
  node_type,
  status: 'succeeded',
  attempt: 1,
  inputs: {},
  outputs: { citations },
  error: null,
  started_at: '2026-01-01T00:00:00.000Z',
  finished_at: '2026-01-01T00:00:00.000Z',
  elapsed_ms: 1,
});

const mine = cite('kb_a', 'one');
const run = { knowledge_base_ids: ['kb_a'], node_runs: [node('knowledge_retrieval', [mine]), node('code', [cite('kb_b', 'two')])] };

test('a citation its retrieval returned stays, as the retrieval gave it', (t) => {
  const doctored = { ...mine, page: 7, paragraph: 'Something else.', source: 'elsewhere.pdf' };
  t.deepEqual(retrievedCitations(run, [doctored], 'No markers here.'), [mine]);
});

test('a citation no retrieval of the run returned is dropped, whoever put it in the outputs', (t) => {
  t.deepEqual(retrievedCitations(run, [cite('kb_b', 'two'), cite('kb_a', 'three')], 'x'), []);
  t.deepEqual(retrievedCitations(run, [{ ...mine, chunk_id: 'chk_other' }], 'x'), [], 'the same document, another chunk');
  t.deepEqual(retrievedCitations(run, 'not a list', 'x'), []);
  t.deepEqual(retrievedCitations(run, [null, 3, 'x'], 'x'), []);
});

test('a retrieval over a knowledge base the run does not belong to does not count', (t) => {
  const elsewhere = cite('kb_b', 'two');
  const wide = { knowledge_base_ids: ['kb_a'], node_runs: [node('knowledge_retrieval', [mine, elsewhere])] };
  t.deepEqual(retrievedCitations(wide, [mine, elsewhere], 'x'), [mine]);
});

test('the answer’s [n] markers point the citation at its quote, as the runner points it', (t) => {
  const [quoted] = retrievedCitations(run, [mine], 'It says: The text of one [1].');
  t.is(quoted?.chunk_id, mine.chunk_id);
  t.is(quoted?.quote?.text, 'The text of one.');
});
