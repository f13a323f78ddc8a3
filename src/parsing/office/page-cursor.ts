/**
 * Where we are in a Word document's pages while walking it in reading order. Word writes a
 * lastRenderedPageBreak on the first run of every page it laid out, including pages that an
 * explicit break already started; `afterBreak` lets such a rendered break be absorbed instead
 * of counting that page twice.
 *
 * Between two page starts lies a stretch. Where Word laid the document out, a stretch is one
 * page. Where it did not (a document written by a library or saved without layout, or one Word
 * laid out only in parts: assembled from pieces, or edited after Word last laid it out), a stretch
 * can hold many pages, which are estimated by a line count (`lines` since the page started), and
 * `estimated` records that one was made. Which stretches to estimate, and how many of our lines a
 * page holds, is the cursor's `plan` (see planPages); a cursor without one only measures.
 */
export type PageCursor = {
  page: number;
  afterBreak: boolean;
  sawText: boolean;
  lines: number;
  estimated: boolean;
  /** The stretches so far: the current one is the next to be pushed. */
  stretches: Stretch[];
  plan: PagePlan | undefined;
};

/** How a stretch ended: Word's layout broke the page, an explicit break did, or the document ended. */
export type Stretch = { lines: number; end: 'rendered' | 'explicit' | 'end' };
/**
 * For each stretch, the lines of the pages it is estimated in, or undefined where Word laid it
 * out; and whether a block may split at the foot of a page (`splits`) or moves on whole.
 */
export type PagePlan = { pageLines: (stretch: number) => number | undefined; splits: boolean };

export const createPageCursor = (plan?: PagePlan): PageCursor => ({ page: 1, afterBreak: false, sawText: false, lines: 0, estimated: false, stretches: [], plan });

/**
 * A page of body text: US Letter or A4 with Word's default margins holds about 45 lines of
 * 85-90 characters at 11-12 pt; paragraph spacing takes a few, hence a little less.
 */
export const CHARS_PER_LINE = 90;
export const LINES_PER_PAGE = 40;
/**
 * Nothing laid out: every stretch longer than a page is estimated, at the default page, and a
 * block that does not fit moves on whole. The default was set with that rule, which stands for
 * what a line count misses (paragraph spacing, headings kept with the next paragraph): on the
 * 872-page handbook it makes 427 pages where LibreOffice makes 430, and splitting 417.
 */
export const ESTIMATE_EVERYWHERE: PagePlan = { pageLines: () => LINES_PER_PAGE, splits: false };
/** Pages of Word's layout needed before their size replaces the default: one could be a title page. */
const MEASURED_PAGES_NEEDED = 3;
/**
 * How far past a page a stretch between Word's page starts may run before it counts as never laid
 * out: Word's pages differ from one another (a page of small print or short lines, beside one
 * with a figure), while a part Word never laid out usually runs to many pages.
 */
const OUTGROWN = 2;
/** Lines a paragraph needs at the foot of a page to start there (Word's orphan control). */
const ORPHAN_LINES = 2;

/**
 * From a first walk's stretches: the lines a page holds, as measured on the pages Word filled and
 * broke by itself (the median, so pages of figures or tables do not set it), and the stretches to
 * estimate: those far longer than such a page. Without any rendered break, all of them.
 *
 * A stretch Word's layout ends (a rendered break after it) ends with a full page, so it is shared
 * out over the whole number of pages nearest to its length; any other ends where its text does.
 */
export function planPages(stretches: readonly Stretch[], laidOut: boolean): PagePlan {
  if (!laidOut) return ESTIMATE_EVERYWHERE;
  const filled = stretches.filter((s) => s.end === 'rendered').map((s) => s.lines).sort((a, b) => a - b);
  const median = filled[Math.floor(filled.length / 2)] ?? LINES_PER_PAGE;
  const perPage = filled.length < MEASURED_PAGES_NEEDED ? LINES_PER_PAGE : Math.min(LINES_PER_PAGE * 4, Math.max(LINES_PER_PAGE / 4, median));
  const lines = stretches.map(({ lines, end }) => {
    if (lines <= perPage * OUTGROWN) return undefined;
    // A little over the share, so that rounding never spills its last line onto a page of its own.
    return end === 'rendered' ? lines / Math.round(lines / perPage) + 0.5 : perPage;
  });
  // The measure comes from Word's pages, which split paragraphs: the estimate splits them too.
  return { pageLines: (stretch) => lines[stretch], splits: true };
}

const linesOf = (chars: number) => Math.max(1, Math.ceil(chars / CHARS_PER_LINE));
const estimatedPage = (cursor: PageCursor) => cursor.plan?.pageLines(cursor.stretches.length);

function endStretch(cursor: PageCursor, end: Stretch['end']) {
  cursor.stretches.push({ lines: cursor.lines, end });
  cursor.lines = 0;
}

/** An explicit break: a page break, pageBreakBefore, a section starting on a new page. */
export function pageBreak(cursor: PageCursor) {
  cursor.page += 1 + overflowPages(cursor);
  endStretch(cursor, 'explicit');
  cursor.afterBreak = true;
}

/** Word's layout started a page here. */
export function renderedBreak(cursor: PageCursor) {
  if (cursor.afterBreak) {
    cursor.afterBreak = false; // the page an explicit break started
    return;
  }
  cursor.page += 1 + overflowPages(cursor);
  endStretch(cursor, 'rendered');
}

/**
 * Lays a block of `chars` characters on the current page. In a stretch being estimated, a block
 * that does not fit starts the next page; where the plan `splits`, text flows on as in Word, which
 * splits a paragraph at the foot of a page, and a block starts the next page only when the current
 * one has no room for its first lines. Returns whether it started one (the block's page is then
 * the cursor's).
 */
export function placeLines(cursor: PageCursor, chars: number): boolean {
  const lines = linesOf(chars);
  const perPage = estimatedPage(cursor);
  if (perPage === undefined) {
    cursor.lines += lines;
    return false;
  }
  const page = cursor.page;
  // A block longer than a page ran onto the pages after the one it started on.
  if (cursor.lines >= perPage) {
    cursor.page += Math.floor(cursor.lines / perPage);
    cursor.lines %= perPage;
  }
  const room = cursor.plan?.splits ? Math.min(lines, ORPHAN_LINES) : lines;
  if (cursor.lines > 0 && perPage - cursor.lines < room) {
    cursor.page++;
    cursor.lines = 0;
  }
  cursor.lines += lines;
  const started = cursor.page > page;
  cursor.estimated ||= started;
  return started;
}

/**
 * Lines that take room on the current page without starting one: footnotes, which Word sets at
 * the foot of the page that cites them.
 */
export function reserveLines(cursor: PageCursor, chars: number) {
  if (chars > 0) cursor.lines += linesOf(chars);
}

/** The last page: where the cursor is, plus the pages a final long block ran onto. */
export const lastPage = (cursor: PageCursor) => cursor.page + overflowPages(cursor);

/** A measuring walk's stretches, the one the document ends with included. */
export const measuredStretches = (cursor: PageCursor): Stretch[] => [...cursor.stretches, { lines: cursor.lines, end: 'end' }];

function overflowPages(cursor: PageCursor): number {
  const perPage = estimatedPage(cursor);
  if (perPage === undefined) return 0;
  const extra = cursor.lines > perPage ? Math.ceil(cursor.lines / perPage) - 1 : 0;
  cursor.estimated ||= extra > 0;
  return extra;
}
