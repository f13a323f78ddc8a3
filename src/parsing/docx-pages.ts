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
  /** A section ends with this paragraph and the next one starts a new page. */
  sectionBreak: '\uE000s',
  /** Followed by a digit: the paragraph's own outline level (0 = top). */
  outline: '\uE000o',
} as const;

export const isMarker = (text: string) => text.charCodeAt(0) === 0xe000;

type Paragraph = { start: number; breakBefore: boolean; outline?: number; sectionBreak: boolean };
type Edit = { at: number; cut: number; text: string };

const TAG = /<(\/?)([A-Za-z][\w:.-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/g;
const SECTION_TYPES_WITHOUT_PAGE = new Set(['continuous', 'nextColumn']);

export function markPageHints(xml: string): string {
  const edits: Edit[] = [];
  const open: Paragraph[] = [];
  let inProps = false;
  let inChange = 0;
  let inSection = false;
  let sectionType: string | undefined;
  // mammoth drops deleted runs, but Word laid them out (tracked changes showing): a rendered
  // break inside a deletion moves to just before it.
  const deletions: number[] = [];

  for (const match of xml.matchAll(TAG)) {
    const [whole, closing, name, attributes = '', selfClosing] = match;
    const at = match.index;
    const end = at + whole.length;
    const paragraph = open[open.length - 1];
    const props = paragraph && inProps && inChange === 0;
    switch (name) {
      case 'w:p':
        if (closing) finishParagraph(open.pop(), at, edits);
        else if (!selfClosing) open.push({ start: end, breakBefore: false, sectionBreak: false });
        break;
      case 'w:pPr':
        if (!paragraph || inChange) break;
        if (closing || selfClosing) {
          paragraph.start = end;
          inProps = false;
        } else inProps = true;
        break;
      case 'w:pPrChange':
        if (closing) inChange--;
        else if (!selfClosing) inChange++;
        break;
      case 'w:pageBreakBefore':
        if (props) paragraph.breakBefore = isOn(attributes);
        break;
      case 'w:outlineLvl':
        if (props) paragraph.outline = Number(value(attributes));
        break;
      case 'w:sectPr':
        if (!props) break;
        if (selfClosing) paragraph.sectionBreak = true;
        else if (closing) {
          paragraph.sectionBreak = !SECTION_TYPES_WITHOUT_PAGE.has(sectionType ?? 'nextPage');
          inSection = false;
        } else {
          inSection = true;
          sectionType = undefined;
        }
        break;
      case 'w:type':
        if (inSection) sectionType = value(attributes);
        break;
      case 'w:del':
      case 'w:moveFrom':
        if (closing) deletions.pop();
        else if (!selfClosing) deletions.push(at);
        break;
      case 'w:lastRenderedPageBreak':
        if (deletions.length) {
          edits.push({ at: deletions[0]!, cut: 0, text: run(MARKER.rendered) });
          edits.push({ at, cut: whole.length, text: '' });
        } else edits.push({ at, cut: whole.length, text: `<w:t>${MARKER.rendered}</w:t>` });
        break;
    }
  }
  return applyEdits(xml, edits);
}

function finishParagraph(paragraph: Paragraph | undefined, closeAt: number, edits: Edit[]) {
  if (!paragraph) return;
  let leading = paragraph.breakBefore ? run(MARKER.breakBefore) : '';
  if (paragraph.outline !== undefined && Number.isInteger(paragraph.outline)) leading += run(MARKER.outline + paragraph.outline);
  if (leading) edits.push({ at: paragraph.start, cut: 0, text: leading });
  if (paragraph.sectionBreak) edits.push({ at: closeAt, cut: 0, text: run(MARKER.sectionBreak) });
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
