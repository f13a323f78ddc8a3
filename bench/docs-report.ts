// Figures of the docs suite: counts and shares overall, per format and per language, pending apart.
import { formatOf, type DocsQuestion } from './docs-questions.ts';
import type { Verdict } from './docs-scoring.ts';
import { round } from './util.ts';

export type Scored = { q: DocsQuestion; verdict: Verdict; answer: string; cited: { source: string; page: number | null }[] };

const GOAL_RIGHT_FILE_PAGE = 0.9;

const share = (n: number, of: number) => (of === 0 ? null : round(n / of, 4));

/** Counts and shares of the answerable questions in `rows`. */
function answerableFigures(rows: Scored[]) {
  const n = rows.length;
  const count = (pick: (v: Verdict) => boolean) => rows.filter((r) => pick(r.verdict)).length;
  const correct = count((v) => v.correct);
  const fact = count((v) => v.fact);
  const rightFile = count((v) => v.rightFile);
  const rightFilePage = count((v) => v.rightFilePage);
  return {
    questions: n,
    correct,
    correct_share: share(correct, n),
    fact_found: fact,
    fact_found_share: share(fact, n),
    right_file: rightFile,
    right_file_share: share(rightFile, n),
    right_file_page: rightFilePage,
    right_file_page_share: share(rightFilePage, n),
  };
}

function groupBy(rows: Scored[], key: (r: Scored) => string) {
  const groups = new Map<string, Scored[]>();
  for (const r of rows) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  return Object.fromEntries([...groups].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, answerableFigures(v)]));
}

export function report(rows: Scored[], uploads: Record<string, string>) {
  const pending = rows.filter((r) => r.q.pending !== undefined);
  const answerable = rows.filter((r) => r.q.pending === undefined && r.q.expected !== null);
  const uncovered = rows.filter((r) => r.q.expected === null);
  const refused = uncovered.filter((r) => r.verdict.refused).length;
  const overall = answerableFigures(answerable);
  return {
    answerable: overall,
    per_format: groupBy(answerable, (r) => formatOf(r.q.file!)),
    per_language: groupBy(answerable, (r) => r.q.language),
    uncovered: { questions: uncovered.length, refused, refused_share: share(refused, uncovered.length) },
    pending: { ...answerableFigures(pending), per_format: groupBy(pending, (r) => formatOf(r.q.file!)) },
    uploads,
    goal: {
      right_file_page_share: GOAL_RIGHT_FILE_PAGE,
      all_uncovered_refused: true,
      pass: (overall.correct_share ?? 0) >= GOAL_RIGHT_FILE_PAGE && refused === uncovered.length,
    },
  };
}

/** One line per wrong answer, for stderr. */
export function failureLines(rows: Scored[]): string[] {
  return rows
    .filter((r) => !r.verdict.correct)
    .map((r) => {
      const where = r.cited.map((c) => `${c.source}#${c.page ?? '-'}`).join(', ') || 'no citation';
      const expected = r.q.expected === null ? 'REFUSAL' : `${JSON.stringify(r.q.expected)} in ${r.q.file}#${JSON.stringify(r.q.page)}`;
      const flags = r.q.expected === null ? 'not refused' : `fact=${r.verdict.fact} file=${r.verdict.rightFile} page=${r.verdict.rightFilePage}`;
      const answer = r.answer.replace(/\s+/g, ' ').slice(0, 240);
      return `${r.q.pending ? '[pending] ' : ''}${r.q.id}: ${r.q.question}\n  expected ${expected}; ${flags}\n  answer: ${answer}\n  cited: ${where}`;
    });
}
