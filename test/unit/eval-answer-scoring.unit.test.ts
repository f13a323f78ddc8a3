// The answer benchmarks' judges (bench/answer-scoring.ts) and argument parsing, without ../shared data.
import test from 'ava';
import {
  characterNormalise,
  containsGold,
  containsWords,
  isRefusal,
  squadAnswerCorrect,
  squadNormalise,
  withoutMarkers,
  xquadAnswerCorrect,
} from '../../bench/answer-scoring.ts';
import { parseEvalArgs } from '../../bench/eval-args.ts';
import type { Suite } from '../../bench/eval-context.ts';
import { articleUpload, splitOf } from '../../bench/squad-data.ts';

test('SQuAD normalisation: lower case, no punctuation, no English articles, single spaces', (t) => {
  t.is(squadNormalise('The  Normans, in   "Normandy"!'), 'normans in normandy');
  t.is(squadNormalise('An apple a day'), 'apple day');
  t.is(squadNormalise('1,000 km²'), '1 000 km2', 'NFKC turns ² into 2; the comma separates');
  t.is(squadNormalise('first sequenced in 1986—when'), 'first sequenced in 1986 when', 'a dash does not glue words');
  t.is(squadNormalise('\u200fمن الذي'), 'من الذي', 'the right-to-left mark goes');
  t.is(squadNormalise('Theatre'), 'theatre', 'article removal keeps words that start with one');
  t.is(squadNormalise('Die Normandie', false), 'die normandie', 'other languages keep their articles');
  t.is(squadNormalise('«Hola», ¿qué?', false), 'hola qué');
});

test('Chinese normalisation drops punctuation and whitespace, keeps characters', (t) => {
  t.is(characterNormalise('卡万· 肖特。'), '卡万肖特');
  t.is(characterNormalise('ＡＢＣ １２'), 'abc12', 'full-width forms fold under NFKC');
});

test('containment is on whole words, except in Chinese', (t) => {
  t.true(containsWords('led by rollo in 911', 'rollo'));
  t.false(containsWords('led by rollos men', 'rollo'));
  t.false(containsWords('anything', ''), 'an empty gold answer matches nothing');
  t.true(containsGold('Rollo led them [1].', ['the Vikings', 'Rollo']));
  t.false(containsGold('It was founded in 1911.', ['911']));
  t.true(containsGold("Manning's record [1].", ['Manning']));
  t.true(containsGold('sequenced in 1986—when [1]', ['1986']));
  t.true(containsGold('黑豹队的防守只丢了308分[1]。', ['308 分'], 'zh'));
  t.true(containsGold('Die Normannen kamen 911 [1].', ['911'], 'de'));
});

test('citation markers never count as answer words', (t) => {
  t.is(withoutMarkers('Paris [1]. London [2, 3].').replace(/\s+/g, ' '), 'Paris . London .');
  t.false(containsGold('The answer is unknown [1].', ['1']));
});

test('an answerable SQuAD question needs the gold answer, a citation and at most 80 words', (t) => {
  const cited = { content: 'The Normans were led by Rollo [1].', citations: 3 };
  t.true(squadAnswerCorrect(cited, ['Rollo']));
  t.false(squadAnswerCorrect({ ...cited, citations: 0 }, ['Rollo']), 'nothing cited');
  t.false(squadAnswerCorrect({ ...cited, content: 'The Normans were led by Rollo.' }, ['Rollo']), 'no marker in the text');
  t.false(squadAnswerCorrect({ ...cited, content: `${'word '.repeat(80)}Rollo [1].` }, ['Rollo']), '81 words is too long');
  t.true(squadAnswerCorrect({ ...cited, content: `${'word '.repeat(79)}Rollo [1] [2].` }, ['Rollo']), 'markers are not words');
});

test('an XQuAD answer needs the gold answer, a citation and at most 600 characters', (t) => {
  t.true(xquadAnswerCorrect({ content: '它位于华沙[1]。', citations: 1 }, ['华沙'], 'zh'));
  t.false(xquadAnswerCorrect({ content: `${'x'.repeat(600)} Warsaw [1].`, citations: 1 }, ['Warsaw'], 'en'));
});

test('a refusal cites nothing, and says so by answerable:false when the field is there', (t) => {
  const refusal = 'The knowledge base does not contain an answer to this question.';
  t.true(isRefusal({ content: refusal, citations: 0 }));
  t.false(isRefusal({ content: refusal, citations: 2 }), 'citations mean it answered');
  t.false(isRefusal({ content: 'Rollo [1].', citations: 0 }), 'a marker without the field reads as an answer');
  t.true(isRefusal({ content: 'Rollo [1].', citations: 0, answerable: false }), 'the field wins over the text');
  t.false(isRefusal({ content: refusal, citations: 0, answerable: true }));
});

test('articles alternate between the fit and held-out halves; an article uploads as Markdown', (t) => {
  t.deepEqual([0, 1, 2, 3].map(splitOf), ['fit', 'held_out', 'fit', 'held_out']);
  t.deepEqual(articleUpload({ title: 'Yuan_dynasty', paragraphs: ['One.', 'Two.'], questions: [] }), {
    name: 'Yuan_dynasty.md',
    text: '# Yuan dynasty\n\nOne.\n\nTwo.\n',
  });
});

test('eval arguments name suites, suite:part, or a part only one suite has', (t) => {
  const run = async () => ({});
  const registry: Record<string, Suite> = { scifact: { run, parts: ['keyword', 'hybrid'] }, squad2: { run }, xquad: { run, parts: ['en', 'zh'] } };
  const suites = (argv: string[]) => Object.fromEntries(parseEvalArgs(argv, registry).suites);
  t.deepEqual(suites([]), { scifact: ['keyword', 'hybrid'], squad2: [], xquad: ['en', 'zh'] });
  t.deepEqual(suites(['keyword']), { scifact: ['keyword'] });
  t.deepEqual(suites(['squad2', 'xquad:zh']), { squad2: [], xquad: ['zh'] });
  t.deepEqual(parseEvalArgs(['squad2', '--out', 'rows.jsonl'], registry).out, 'rows.jsonl');
  t.throws(() => parseEvalArgs(['nope'], registry), { message: /unknown suite or part 'nope'/ });
});
