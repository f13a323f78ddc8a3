import test from 'ava';
import { citedPassages, type Citation } from '../../src/app/retrieval/retrieved-context.ts';

// issue 43 item 11: an answer's citations are the passages its markers name, each under its own number.

const passage = (index: number, paragraph: string): Citation => ({
  index,
  source: `sheet-${index}.txt`,
  page: 1,
  paragraph,
  document_id: `doc_${index}`,
  knowledge_base_id: 'kb_1', document_version: 1,
  chunk_id: `chk_${index}`,
  score: 1 - index / 10,
  heading_path: [],
  char_start: 0,
  char_end: paragraph.length,
  boxes: [],
});
const context = [
  passage(1, 'Drawings of the tower.'),
  passage(2, 'The tower is 120 metres tall.'),
  passage(3, 'A turbine costs 3.1 million euros.'),
  passage(4, 'It is serviced twice a year.'),
  passage(5, 'Each blade is 78 metres long.'),
];

test('one passage cited of five: one citation, its number kept, its quote set', (t) => {
  const cited = citedPassages(context, 'The tower is 120 metres tall [2].');
  t.deepEqual(
    cited.map((c) => [c.index, c.chunk_id, c.quote?.text]),
    [[2, 'chk_2', 'The tower is 120 metres tall.']],
  );
});

test('several markers cite several passages, in context order; a marker of no passage cites nothing', (t) => {
  const cited = citedPassages(context, 'Each blade is 78 metres long [5]. The tower is 120 metres tall [2][9].');
  t.deepEqual(
    cited.map((c) => c.index),
    [2, 5],
  );
});

test('an answer without markers cites nothing; a cited passage no sentence matches keeps quote null', (t) => {
  t.deepEqual(citedPassages(context, 'The documents do not say.'), []);
  t.deepEqual(
    citedPassages(context, 'Something else entirely [4].').map((c) => [c.index, c.quote]),
    [[4, null]],
  );
});
