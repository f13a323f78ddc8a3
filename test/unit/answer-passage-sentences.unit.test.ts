import test from 'ava';
import { passageSentences } from '../../src/domain/answer/passage-sentences.ts';

test('sentences of each passage in order, whitespace normalised, with citation and rank', (t) => {
  const sentences = passageSentences([
    { index: 4, text: 'First  sentence\nwraps over a line. Second one!' },
    { index: 2, text: 'Only one here.' },
  ]);
  t.deepEqual(
    sentences.map((s) => [s.text, s.citation, s.passageRank, s.position]),
    [
      ['First sentence wraps over a line.', 4, 0, 0],
      ['Second one!', 4, 0, 1],
      ['Only one here.', 2, 1, 0],
    ],
  );
});

test('table rows joined by the chunker come apart at the repeated first column', (t) => {
  const text = 'Stanley Cups Team | Location | Stanley Cups Team: Blues; Location: STL; Stanley Cups: 1 Team: Flyers; Location: PHI; Stanley Cups: 2';
  t.deepEqual(
    passageSentences([{ index: 1, text }]).map((s) => [s.text, s.tableRow]),
    [
      ['Stanley Cups Team | Location | Stanley Cups', true],
      ['Team: Blues; Location: STL; Stanley Cups: 1', true],
      ['Team: Flyers; Location: PHI; Stanley Cups: 2', true],
    ],
  );
  const multiWordKey = 'Stanley Cups: 1; Team: Blues Stanley Cups: 2; Team: Flyers';
  t.deepEqual(passageSentences([{ index: 1, text: multiWordKey }]).map((s) => s.text), ['Stanley Cups: 1; Team: Blues', 'Stanley Cups: 2; Team: Flyers']);
  t.deepEqual(passageSentences([{ index: 1, text: 'Note: prose with a colon stays whole. Yes.' }]).map((s) => s.text), ['Note: prose with a colon stays whole.', 'Yes.']);
});

test('list items and headings on their own lines are separate, without their bullets', (t) => {
  const text = 'Installation\n- Download the installer\n- Run it as administrator\nThe wizard then\nfinishes the setup.';
  t.deepEqual(passageSentences([{ index: 1, text }]).map((s) => s.text), [
    'Installation',
    'Download the installer',
    'Run it as administrator',
    'The wizard then finishes the setup.',
  ]);
});
