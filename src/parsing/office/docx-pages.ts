/**
 * mammoth gives us Word's structure but drops what we need for pages: w:lastRenderedPageBreak
 * (where Word's last layout broke pages), pageBreakBefore and section breaks, and direct outline
 * levels. Before mammoth parses word/document.xml we turn each into a text run holding a
 * private-use marker, so the hints arrive in mammoth's model exactly where they sat in the XML
 * and no second pass has to be aligned with mammoth's paragraph order. Explicit
 * <w:br w:type="page"/> needs nothing: mammoth keeps it as a page break.
 *
 * Assumes Word's usual "w:" prefix; a document using another prefix only loses these hints.
 */
export const MARKER = {
  /** Word's layout started a new page here. */
  rendered: '\uE000r',
  /** The paragraph starts on a new page (pageBreakBefore). */
  breakBefore: '\uE000b',
  /** A section ends with this paragraph and the next one starts on a new page. */
  sectionBreak: '\uE000s',
  /** Followed by a digit: the paragraph's own outline level (0 = top). */
  outline: '\uE000o',
} as const;

export const isMarker = (text: string) => text.charCodeAt(0) === 0xe000;

type Paragraph = { start: number; breakBefore: boolean; outline?: number; closeAt?: number };
/** A section's properties: the paragraph that ends it (none for the body's last), and its w:type. */
type Section = { endsWith: Paragraph | undefined; type: string | undefined };
type Edit = { at: number; cut: number; text: string };

const TAG = /<(\/?)([A-Za-z][\w:.-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/g;
const SECTION_TYPES_WITHOUT_PAGE = new Set(['continuous', 'nextColumn']);

/** What the scan knows at a tag: the paragraphs open around it and the property blocks it is in. */
type Scan = {
  edits: Edit[];
  open: Paragraph[];
  inProps: boolean;
  inChange: number;
  // w:sectPr nests (a tracked change of section properties holds the old ones): depth 1 is the real one.
  sectionDepth: number;
  sections: Section[];
  // mammoth drops deleted runs, but Word laid them out (tracked changes showing): a rendered
  // break inside a deletion moves to just before it.
  deletions: number[];
};
type Tag = { whole: string; closing: boolean; selfClosing: boolean; attributes: string; at: number; end: number };

export function markPageHints(xml: string): string {
  const scan: Scan = { edits: [], open: [], inProps: false, inChange: 0, sectionDepth: 0, sections: [], deletions: [] };
  for (const match of xml.matchAll(TAG)) {
    const [whole, closing, name = '', attributes = '', selfClosing] = match;
    const tag = { whole, closing: !!closing, selfClosing: !!selfClosing, attributes, at: match.index, end: match.index + whole.length };
    ON_TAG.get(name)?.(scan, tag);
  }
  markSectionBreaks(scan.sections, scan.edits);
  return applyEdits(xml, scan.edits);
}

const current = (scan: Scan) => scan.open[scan.open.length - 1];
/** The paragraph whose own properties (not a tracked change of them) the scan is in. */
const ownProps = (scan: Scan) => (scan.inProps && scan.inChange === 0 ? current(scan) : undefined);

/** A Map, not an object: a tag named like an Object.prototype member must find nothing. */
const ON_TAG = new Map<string, (scan: Scan, tag: Tag) => void>([
  ['w:p', onParagraph],
  ['w:pPr', onParagraphProps],
  ['w:pPrChange', onPropsChange],
  ['w:pageBreakBefore', (scan, tag) => {
    const paragraph = ownProps(scan);
    if (paragraph) paragraph.breakBefore = isOn(tag.attributes);
  }],
  ['w:outlineLvl', (scan, tag) => {
    const paragraph = ownProps(scan);
    if (paragraph) paragraph.outline = Number(value(tag.attributes));
  }],
  ['w:sectPr', onSectionProps],
  ['w:type', (scan, tag) => {
    const section = scan.sectionDepth === 1 && scan.inChange === 0 ? scan.sections.at(-1) : undefined;
    if (section) section.type = value(tag.attributes);
  }],
  ['w:del', onDeletion],
  ['w:moveFrom', onDeletion],
  ['w:lastRenderedPageBreak', onRenderedBreak],
]);

function onParagraph(scan: Scan, tag: Tag) {
  if (tag.closing) finishParagraph(scan.open.pop(), tag.at, scan.edits);
  else if (!tag.selfClosing) scan.open.push({ start: tag.end, breakBefore: false });
}

function onParagraphProps(scan: Scan, tag: Tag) {
  const paragraph = current(scan);
  if (!paragraph || scan.inChange) return;
  if (tag.closing || tag.selfClosing) {
    paragraph.start = tag.end;
    scan.inProps = false;
  } else scan.inProps = true;
}

function onPropsChange(scan: Scan, tag: Tag) {
  if (tag.closing) scan.inChange--;
  else if (!tag.selfClosing) scan.inChange++;
}

function onSectionProps(scan: Scan, tag: Tag) {
  if (tag.closing) {
    scan.sectionDepth--;
    return;
  }
  // The old properties of a tracked change (in w:pPrChange) describe no section of the document.
  if (scan.sectionDepth === 0 && scan.inChange === 0) scan.sections.push({ endsWith: ownProps(scan), type: undefined });
  if (!tag.selfClosing) scan.sectionDepth++;
}

/**
 * A section's w:type says how that section starts (ECMA-376 17.6.22), so whether the paragraph
 * ending one section is followed by a new page is decided by the NEXT section's type, the body's
 * own sectPr for the last one. Reading the ending section's own type instead made every continuous
 * section after a next-page one (a journal's two-column body after its one-column title) a page,
 * and dropped the page before every next-page section that followed a continuous one.
 */
function markSectionBreaks(sections: Section[], edits: Edit[]) {
  sections.forEach((section, i) => {
    const closeAt = section.endsWith?.closeAt;
    const next = sections[i + 1];
    // A sectPr in the last paragraph with no body sectPr after it: nothing follows to start a page.
    if (closeAt === undefined || !next) return;
    if (!SECTION_TYPES_WITHOUT_PAGE.has(next.type ?? 'nextPage')) edits.push({ at: closeAt, cut: 0, text: run(MARKER.sectionBreak) });
  });
}

function onDeletion(scan: Scan, tag: Tag) {
  if (tag.closing) scan.deletions.pop();
  else if (!tag.selfClosing) scan.deletions.push(tag.at);
}

function onRenderedBreak(scan: Scan, { at, whole }: Tag) {
  if (scan.deletions.length) {
    scan.edits.push({ at: scan.deletions[0]!, cut: 0, text: run(MARKER.rendered) });
    scan.edits.push({ at, cut: whole.length, text: '' });
  } else scan.edits.push({ at, cut: whole.length, text: `<w:t>${MARKER.rendered}</w:t>` });
}

function finishParagraph(paragraph: Paragraph | undefined, closeAt: number, edits: Edit[]) {
  if (!paragraph) return;
  paragraph.closeAt = closeAt;
  let leading = paragraph.breakBefore ? run(MARKER.breakBefore) : '';
  if (paragraph.outline !== undefined && Number.isInteger(paragraph.outline)) leading += run(MARKER.outline + paragraph.outline);
  if (leading) edits.push({ at: paragraph.start, cut: 0, text: leading });
}

function applyEdits(xml: string, edits: Edit[]): string {
  if (edits.length === 0) return xml;
  edits.sort((a, b) => a.at - b.at);
  const parts: string[] = [];
  let from = 0;
  for (const edit of edits) {
    parts.push(xml.slice(from, edit.at), edit.text);
    from = edit.at + edit.cut;
  }
  parts.push(xml.slice(from));
  return parts.join('');
}

const run = (text: string) => `<w:r><w:t>${text}</w:t></w:r>`;
const value = (attributes: string) => /\bw:val\s*=\s*["']([^"']*)["']/.exec(attributes)?.[1];
const isOn = (attributes: string) => !['0', 'false', 'off'].includes(value(attributes) ?? 'true');
