// The hand-written question set over ../shared/data/docs (bench/data/docs-questions.jsonl):
// its shape, loading and a check that every line is well-formed.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const QUESTIONS_PATH = fileURLToPath(new URL('./data/docs-questions.jsonl', import.meta.url));
export const DOCS_DIR = fileURLToPath(new URL('../../shared/data/docs/', import.meta.url));

export type DocsQuestion = {
  id: string;
  question: string;
  /** Acceptable fact strings, any one of which the answer must contain; null: no document covers the question. */
  expected: string[] | null;
  /** Path under docs/; null for an uncovered question. */
  file: string | null;
  /** 1-based page of the fact; several when the same text repeats in the file; null for page-less formats. */
  page: number | number[] | null;
  language: string;
  sheet?: string;
  /** Other files holding the same text (an image of the same page, say): citing one of them counts too. */
  equivalent_files?: string[];
  /** Set while the file's format is not parsed yet; such questions are reported apart. */
  pending?: string;
  note?: string;
};

export const hasDocs = () => existsSync(DOCS_DIR);

export function loadQuestions(path = QUESTIONS_PATH): DocsQuestion[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as DocsQuestion);
}

/** Every file a question names, once, in order of first mention. */
export function referencedFiles(questions: readonly DocsQuestion[]): string[] {
  return [...new Set(questions.flatMap((q) => [...(q.file ? [q.file] : []), ...(q.equivalent_files ?? [])]))];
}

/** The format a question is counted under: the file's extension, or "scanned" for OCR inputs. */
export function formatOf(file: string): string {
  if (file.startsWith('scanned/')) return 'scanned';
  return file.slice(file.lastIndexOf('.') + 1).toLowerCase();
}

const isPage = (p: unknown) => Number.isInteger(p) && (p as number) >= 1;

function basicProblems(q: DocsQuestion): string[] {
  const problems: string[] = [];
  if (typeof q.id !== 'string' || q.id === '') problems.push('id missing');
  if (typeof q.question !== 'string' || q.question.trim().length < 8) problems.push('question missing or too short');
  if (typeof q.language !== 'string' || !/^[a-z]{2}$/.test(q.language)) problems.push('language must be a two-letter code');
  return problems;
}

function answerableProblems(q: DocsQuestion): string[] {
  const problems: string[] = [];
  if (!Array.isArray(q.expected) || q.expected.length === 0 || q.expected.some((e) => typeof e !== 'string' || e.trim() === '')) {
    problems.push('expected must be a non-empty array of strings');
  }
  if (typeof q.file !== 'string' || q.file.startsWith('bad/') || !/^[a-z]+\/[^/]+\.[a-z]+$/i.test(q.file)) problems.push('file must be a path under docs/ outside bad/');
  const pages = Array.isArray(q.page) ? q.page : [q.page];
  if (q.page !== null && (pages.length === 0 || !pages.every(isPage))) problems.push('page must be null, a page number or a list of them');
  if (q.pending !== undefined && !/^issue-\d+$/.test(q.pending)) problems.push('pending must name an issue');
  return problems;
}

/** What is wrong with one question, or [] when nothing is. */
export function problemsOf(q: DocsQuestion): string[] {
  if (q.expected !== null) return [...basicProblems(q), ...answerableProblems(q)];
  const uncovered = q.file !== null || q.page !== null ? ['an uncovered question names no file or page'] : [];
  return [...basicProblems(q), ...uncovered];
}
