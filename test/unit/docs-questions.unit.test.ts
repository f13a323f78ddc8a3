import { existsSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { DOCS_DIR, hasDocs, loadQuestions, problemsOf, referencedFiles } from '../../bench/docs-questions.ts';

const questions = loadQuestions();
const counted = questions.filter((q) => q.pending === undefined);

test('the docs question set has at least 60 answerable and 10 uncovered questions', (t) => {
  t.true(counted.filter((q) => q.expected !== null).length >= 60);
  t.true(counted.filter((q) => q.expected === null).length >= 10);
});

test('every question is well-formed and has its own id', (t) => {
  const problems = questions.flatMap((q) => problemsOf(q).map((p) => `${q.id}: ${p}`));
  t.deepEqual(problems, []);
  t.is(new Set(questions.map((q) => q.id)).size, questions.length);
});

test('every file the set names exists under ../shared/data/docs', (t) => {
  if (!hasDocs()) {
    t.log(`skipped: ${DOCS_DIR} is not present`);
    t.pass();
    return;
  }
  t.deepEqual(
    referencedFiles(questions).filter((f) => !existsSync(join(DOCS_DIR, f))),
    [],
  );
});
