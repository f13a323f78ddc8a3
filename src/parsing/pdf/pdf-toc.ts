/**
 * Tables of contents and index pages. Their title ("Contents") is set like a chapter heading,
 * often larger than any chapter heading, so without care it becomes the ancestor of every chunk
 * that follows; their entries, set in bold, pass for headings too. A page is a contents page when
 * it reads like one: entries that end in page numbers (after dot leaders, or in lines that are
 * nothing but a title and a number), or an index's "term, 12, 45", under a title of that name or
 * in numbers no running text has. A page right after one that still has entries continues it.
 */

const TITLES = [
  'contents',
  'content',
  'table of contents',
  'index',
  'inhalt',
  'inhaltsverzeichnis',
  'register',
  'sommaire',
  'table des matières',
  'índice',
  'indice',
  'contenido',
  'sumário',
  'sommario',
  'inhoud',
  'innehåll',
  'indhold',
  'spis treści',
  'obsah',
  'содержание',
  'оглавление',
  'указатель',
  '目录',
  '目錄',
  '目次',
  '목차',
  '차례',
];
const TITLE_SET = new Set(TITLES);

/** "Contents", "TABLE OF CONTENTS", "Contents:", "1 Index" … but not "Contents of the box". */
export const isTocTitle = (text: string): boolean =>
  TITLE_SET.has(
    text
      .toLowerCase()
      .replace(/^[\d.\s]+|[\s:.]+$/g, '')
      .replace(/\s+/g, ' ')
      .replace(/(?<=\p{Script=Han}|\p{Script=Hangul})\s(?=\p{Script=Han}|\p{Script=Hangul})/gu, ''),
  );

// "Watering ........ 7", "Watering … 7", "Watering _____ 7": a dot leader to a page number.
const LEADER_ENTRY = /\p{L}[^\d\n]{0,3}(?:[.·…_]\s?){3,}\s*(?:\d{1,4}|[ivxlc]{1,6})\b/giu;
// A block that is a title and a page number and nothing more: "3 Watering 7".
const NUMBER_ENDED = /^\D{2,100}?\p{L}[\p{L})’'"]?\s+\d{1,4}$/u;
// A page number before the title, as magazines and reports set them: "24 COVID-19 Response".
// Numbered headings look the same, so these count only under a contents title.
const NUMBER_LED = /^(?:PG\s)?\d{1,4}\s+\p{L}/u;
// An index entry: "compost, 12, 45–46".
const INDEX_ENTRY = /\p{L},\s\d{1,4}(?:[-–]\d{1,4})?(?:,\s\d{1,4}(?:[-–]\d{1,4})?)*(?=\s|$)/gu;

/** Contents or index entries in a page's blocks: those with dot leaders, and all of them. */
export function tocEntries(texts: readonly string[]): { leaders: number; all: number; numberLed: number } {
  let leaders = 0;
  let all = 0;
  let numberLed = 0;
  for (const text of texts) {
    const led = text.match(LEADER_ENTRY)?.length ?? 0;
    leaders += led;
    all += led || (text.match(INDEX_ENTRY)?.length ?? 0) || (NUMBER_ENDED.test(text) ? 1 : 0);
    if (NUMBER_LED.test(text)) numberLed++;
  }
  return { leaders, all, numberLed };
}

/**
 * The pages (1-based) that are contents or index pages, given each page's block texts in order.
 * Without a title only dot leaders count: a two-column table of names and numbers also has many
 * lines that end in a number.
 */
export function tocPages(pages: ReadonlyMap<number, readonly string[]>): Set<number> {
  const toc = new Set<number>();
  for (const [page, texts] of pages) {
    const { leaders, all, numberLed } = tocEntries(texts);
    const titled = texts.slice(0, 3).some(isTocTitle);
    const continues = toc.has(page - 1) && all >= 3;
    if ((titled && all + numberLed >= 3) || leaders >= 5 || continues) toc.add(page);
  }
  return toc;
}
