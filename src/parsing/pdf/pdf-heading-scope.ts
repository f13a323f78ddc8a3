import { headingLevels, type BodyStyle } from './pdf-headings.ts';
import type { PageBlock } from './pdf-page-block.ts';
import { isTocTitle, tocPages } from './pdf-toc.ts';

/**
 * Which heading candidates may open a section that later chunks sit under. Two kinds may not:
 * - what a contents or index page holds. Its title stays a heading for the page's own entries,
 *   but the section it opens ends with the contents pages; entries in a heading font are not
 *   headings at all;
 * - a running header or footer the margin filter missed (set outside the margin band, or a
 *   line that varies on some pages): the same text first or last on at least half the pages.
 */

export type Placed = { page: number; block: PageBlock };

export type HeadingScope = {
  levels: (number | undefined)[];
  /** Indexes into the placed blocks where a run of contents pages begins (its title, or its first block). */
  tocStarts: Set<number>;
  /** Pages that are contents or index pages. */
  toc: Set<number>;
};

export function scopeHeadings(placed: readonly Placed[], body: BodyStyle): HeadingScope {
  const byPage = new Map<number, number[]>();
  placed.forEach(({ page }, i) => {
    const ids = byPage.get(page);
    if (ids) ids.push(i);
    else byPage.set(page, [i]);
  });
  const texts = new Map([...byPage].map(([page, ids]) => [page, ids.map((i) => placed[i]!.block.text)] as const));
  const toc = tocPages(texts);
  // A contents title set in a size of its own would push every chapter heading a level down.
  const onToc = new Set(placed.flatMap(({ page }, i) => (toc.has(page) ? [i] : [])));
  const levels = headingLevels(
    placed.map((p) => p.block),
    body,
    onToc,
  );
  const running = runningLines(placed, byPage);
  const scoped = levels.map((level, i) => {
    const { page, block } = placed[i]!;
    if (level === undefined) return undefined;
    if (toc.has(page) && !isTocTitle(block.text)) return undefined;
    return running.has(key(block.text)) ? undefined : level;
  });
  const tocStarts = new Set<number>();
  for (const page of toc) {
    if (toc.has(page - 1)) continue;
    const ids = byPage.get(page) ?? [];
    tocStarts.add(ids.slice(0, 3).find((i) => isTocTitle(placed[i]!.block.text)) ?? ids[0]!);
  }
  return { levels: scoped, tocStarts, toc };
}

const key = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/** Texts that open or close at least half of the pages (and three). */
function runningLines(placed: readonly Placed[], byPage: ReadonlyMap<number, number[]>): Set<string> {
  const counts = new Map<string, number>();
  for (const ids of byPage.values()) {
    const edges = new Set([ids[0]!, ids[ids.length - 1]!].map((i) => key(placed[i]!.block.text)));
    for (const text of edges) counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  const needed = Math.max(3, byPage.size / 2);
  return new Set([...counts].filter(([, n]) => n >= needed).map(([text]) => text));
}
