import type { Segment } from './pdf-segments.ts';

/**
 * Running headers and footers: text in the top or bottom margin that recurs on many pages
 * ("Internal Revenue Manual", "page 94", a bare page number). Digits are masked so that page
 * numbers and dates still match; what recurs on at least a quarter of the pages (and three of
 * them) is dropped everywhere.
 */

export type MarginPage = { segments: readonly Segment[]; height: number };

/** Fraction of the page height at the top and at the bottom that counts as margin. */
const MARGIN = 0.1;

export function marginKey(seg: Segment, height: number): string | undefined {
  const zone = seg.bottom < height * MARGIN ? 'top' : seg.top > height * (1 - MARGIN) ? 'bottom' : undefined;
  if (!zone) return undefined;
  return `${zone}:${seg.text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim()}`;
}

export function repeatedMargins(pages: readonly MarginPage[]): Set<string> {
  const counts = new Map<string, number>();
  for (const page of pages) {
    const keys = new Set(page.segments.map((s) => marginKey(s, page.height)).filter((k) => k !== undefined));
    for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const needed = Math.max(3, Math.ceil(pages.length / 4));
  return new Set([...counts].filter(([, n]) => n >= needed).map(([key]) => key));
}

export function dropMargins(page: MarginPage, repeated: ReadonlySet<string>): Segment[] {
  if (!repeated.size) return [...page.segments];
  return page.segments.filter((s) => {
    const key = marginKey(s, page.height);
    return !key || !repeated.has(key);
  });
}
