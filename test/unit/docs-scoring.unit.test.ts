import test from 'ava';
import type { DocsQuestion } from '../../bench/docs-questions.ts';
import { containsFact, refusedReply, score } from '../../bench/docs-scoring.ts';

const q: DocsQuestion = { id: 'q', question: 'Zone NA sales?', expected: ['12553'], file: 'xlsx/a.xlsx', page: 2, language: 'en' };

test('a fact matches across thousands separators, case, width and whitespace', (t) => {
  t.true(containsFact('Sales (a): 12,553 [1]', ['12553']));
  t.true(containsFact('RIL ７,92,756  Crore', ['7,92,756 crore']));
  t.false(containsFact('Sales 12.553', ['12553']));
});

test('an answer is right only with the fact and a citation of the file and page', (t) => {
  const cite = (page: number) => ({ index: 1, source: 'a.xlsx', page });
  t.true(score(q, { content: 'It is 12,553 [1].', citations: [cite(2)] }).correct);
  const wrongPage = score(q, { content: 'It is 12,553 [1].', citations: [cite(3)] });
  t.like(wrongPage, { correct: false, fact: true, rightFile: true, rightFilePage: false });
});

test('a refusal has no citations and no marker, or says answerable: false', (t) => {
  t.true(refusedReply({ content: 'Not covered by the knowledge base.', citations: [] }));
  t.false(refusedReply({ content: 'Maybe [1].', citations: [] }));
  t.false(refusedReply({ content: 'x', citations: [], answerable: true }));
  t.false(refusedReply({ content: 'x', citations: [{ index: 1, source: 'a', page: 1 }] }));
});
