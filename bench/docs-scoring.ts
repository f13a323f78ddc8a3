// Scores one chat answer against one question of the docs set. Pure: no I/O.
import type { DocsQuestion } from './docs-questions.ts';

export type ChatCitation = { index?: number; source?: string; name?: string; page?: number | null };
export type ChatReply = { content: string; citations: ChatCitation[]; answerable?: boolean };

export type Verdict = {
  /** Answerable: fact found and a citation of the expected file (and page, when given). Uncovered: refused. */
  correct: boolean;
  fact: boolean;
  rightFile: boolean;
  rightFilePage: boolean;
  refused: boolean;
};

/** NFKC, lower case, whitespace collapsed, and thousands separators dropped (12,553 → 12553). */
export function normalise(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/(?<=\d)[,\u00a0\u202f'’](?=\d)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export const containsFact = (content: string, expected: readonly string[]) => {
  const haystack = normalise(content);
  return expected.some((e) => haystack.includes(normalise(e)));
};

const MARKER = /\[(\d+)\]/g;

/** The [n] markers of an answer. */
export function markersOf(content: string): Set<number> {
  return new Set([...content.matchAll(MARKER)].map((m) => Number(m[1])));
}

/**
 * The citations the answer stands on: those its [n] markers point at when it has markers,
 * else every citation the response returned.
 */
export function usedCitations(reply: ChatReply): ChatCitation[] {
  const markers = markersOf(reply.content);
  const marked = reply.citations.filter((c) => c.index !== undefined && markers.has(c.index));
  return marked.length > 0 ? marked : reply.citations;
}

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const citedName = (c: ChatCitation) => baseName(c.source ?? c.name ?? '');

export function citesFile(c: ChatCitation, q: DocsQuestion): boolean {
  const files = [q.file, ...(q.equivalent_files ?? [])].filter((f): f is string => f !== null);
  return files.some((f) => baseName(f) === citedName(c));
}

export function citesPage(c: ChatCitation, q: DocsQuestion): boolean {
  if (q.page === null) return true;
  const pages = Array.isArray(q.page) ? q.page : [q.page];
  // An equivalent file (another copy of the same page) is judged by file only.
  if (q.file !== null && citedName(c) !== baseName(q.file)) return true;
  return c.page !== undefined && c.page !== null && pages.includes(c.page);
}

export function refusedReply(reply: ChatReply): boolean {
  if (reply.citations.length > 0) return false;
  return reply.answerable === undefined ? markersOf(reply.content).size === 0 : reply.answerable === false;
}

export function score(q: DocsQuestion, reply: ChatReply): Verdict {
  const refused = refusedReply(reply);
  if (q.expected === null) return { correct: refused, fact: false, rightFile: false, rightFilePage: false, refused };
  const fact = containsFact(reply.content, q.expected);
  const cited = usedCitations(reply);
  const rightFile = cited.some((c) => citesFile(c, q));
  const rightFilePage = cited.some((c) => citesFile(c, q) && citesPage(c, q));
  return { correct: fact && rightFilePage, fact, rightFile, rightFilePage, refused };
}
