import { Util, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { repairText } from '../language/text-repair.ts';

/**
 * A page's text layer as positioned runs in the page's visual frame: y grows downwards, the page
 * rotation is applied, so "left", "above" and "same line" mean what a reader sees.
 */

export type TextItem = {
  text: string;
  x0: number;
  x1: number;
  /** Baseline, top-down. */
  y: number;
  /** Font size on the page (the glyph box height). */
  size: number;
  font: string;
  /** Set in a fixed-pitch font: code, or text meant to keep its alignment. */
  mono: boolean;
  /** pdf.js put whitespace before or after this run: a word boundary even when the gap is tiny. */
  spaceBefore: boolean;
  spaceAfter: boolean;
};

export type PageText = {
  width: number;
  height: number;
  /** Upright text, in content order. */
  items: TextItem[];
  /** Rotated or vertical runs (margin stamps, axis labels), in content order. */
  rotated: string[];
  /**
   * Control characters dropped from the runs. A font without a usable ToUnicode map often
   * yields its raw codes 1-31 for letters: many of them mean a broken layer, not stray marks.
   */
  controlChars: number;
};

type PdfJsItem = Awaited<ReturnType<PDFPageProxy['getTextContent']>>['items'][number];
type PdfJsTextItem = Extract<PdfJsItem, { str: string }>;

// Control characters that some producers leave in text runs.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f\ufffe\uffff]/g;

export async function readPageText(page: PDFPageProxy): Promise<PageText> {
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const items: TextItem[] = [];
  const rotated: string[] = [];
  let pendingSpace = false;
  let controlChars = 0;
  for (const raw of content.items) {
    if (!('str' in raw)) continue;
    controlChars += raw.str.match(CONTROL)?.length ?? 0;
    // Repaired here too, not only per block, so the page's garbled-layer check sees repaired words.
    const str = repairText(raw.str).replace(CONTROL, '');
    if (!str.trim()) {
      // A whitespace-only run still separates the words around it.
      pendingSpace = pendingSpace || str.length > 0;
      continue;
    }
    const mono = content.styles[raw.fontName]?.fontFamily === 'monospace';
    const item = toItem(raw, str, viewport.transform, pendingSpace, mono);
    pendingSpace = false;
    if (item) items.push(item);
    else rotated.push(str.trim());
  }
  return { width: viewport.width, height: viewport.height, items, rotated, controlChars };
}

function toItem(raw: PdfJsTextItem, str: string, view: number[], spaceBefore: boolean, mono: boolean): TextItem | null {
  const [a, b, c, d, e, f] = Util.transform(view, raw.transform) as number[];
  const size = Math.hypot(c!, d!);
  // Upright means the x axis still points right and the y axis down after the view transform.
  if (!(size > 0) || !(a! > 0) || Math.abs(b!) > 0.05 * a! || Math.abs(c!) > 0.05 * size || !(d! < 0)) return null;
  const text = str.trim();
  const width = raw.width > 0 ? raw.width : text.length * size * 0.5;
  return {
    text,
    x0: e!,
    x1: e! + width,
    y: f!,
    size,
    font: raw.fontName,
    mono,
    spaceBefore: spaceBefore || /^\s/.test(str),
    spaceAfter: /\s$/.test(str) || raw.hasEOL,
  };
}
