import type { ReactNode } from 'react';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const isCjk = (term: string) => /[\u3040-\u30ff\u3400-\u9fff]/u.test(term);

/**
 * The passage with the query's terms in <mark>. The API names the analysed terms (lower case,
 * stemmed: "blade" for "blades") and not where they sit, so a Latin term marks each word it begins,
 * and a Chinese or Japanese term (a character pair) marks where it occurs.
 */
export function highlightTerms(text: string, terms: readonly string[]): ReactNode[] {
  const usable = terms.filter((term) => term.length > 1 || isCjk(term));
  if (usable.length === 0) return [text];
  const alternatives = usable
    .sort((a, b) => b.length - a.length)
    .map((term) => (isCjk(term) ? escape(term) : `(?<![\\p{L}\\p{N}])${escape(term)}[\\p{L}\\p{N}]*`));
  const pattern = new RegExp(`(${alternatives.join('|')})`, 'giu');
  return text.split(pattern).map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : part));
}
