import { repairText } from '../language/text-repair.ts';
import type { PageText, TextItem } from './pdf-items.ts';

/**
 * One page's characters from PDFium (pdfium.ts) grouped into the runs pdf.js gives (pdf-items.ts):
 * a run is one text object's characters on one line, spaces included; it ends at a line end, a
 * change of text object (font and size) or a jump in position. Runs carry spaceBefore and
 * spaceAfter, which the layout reads as word boundaries (pdf-segments.ts).
 */

export type Exports = Record<string, (...args: number[]) => number> & { memory: WebAssembly.Memory; malloc(n: number): number; free(p: number): void };
/** Page space to the visual frame: x' = a·x + c·y + e, y' = b·x + d·y + f. */
export type Affine = [number, number, number, number, number, number];

export type PageContext = {
  x: Exports;
  /** The page's FPDF_TEXTPAGE. */
  text: number;
  view: Affine;
  /** 64 bytes of WebAssembly memory for the calls' out-parameters. */
  scratch: number;
  /** 256 bytes for font names. */
  fontName: number;
  width: number;
  height: number;
};

/** FPDF_FONT_FIXEDPITCH in FPDFText_GetFontInfo's flags. */
const FIXED_PITCH = 1;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f\ufffe\uffff]/g;
/**
 * Typewriter faces whose descriptor does not say fixed-pitch (TeX's CMTT, say), by name: pdf.js
 * calls them 'monospace' from its own tables, which PDFium has no counterpart of.
 */
const MONO_NAME = /mono|courier|typewriter|consol|menlo|inconsolata|^(?:[A-Z]{6}\+)?cmtt|lmmono|sfmono/i;
/** Points past the page's edge where a character still counts as on it. */
const OFF_PAGE = 1;
const isSpace = (u: number) => u === 0x20 || u === 0xa0;
const isLineEnd = (u: number) => u === 0x0a || u === 0x0d;

type Run = { chars: number[]; generatedTail: boolean; first: number; object: number; x0: number; x1: number; reach: number; y: number; size: number; upright: boolean; spaceBefore: boolean };
/** A character placed in the visual frame. */
type Char = { u: number; object: number; x: number; y: number; left: number; right: number };

export function pageRuns(page: PageContext): PageText {
  const { x, text } = page;
  const out = runWriter(page);
  let run: Run | undefined;
  let lineBreak = false;
  const count = x.FPDFText_CountChars!(text);
  for (let i = 0; i < count; i++) {
    const u = x.FPDFText_GetUnicode!(text, i);
    if (isLineEnd(u)) {
      // A line end PDFium inferred (from a change of baseline, a superscript's say) is judged by
      // where the next character stands; one in the content is a word boundary.
      if (run && x.FPDFText_IsGenerated!(text, i) === 1) lineBreak = true;
      else run = out.flush(run, true);
      continue;
    }
    if (isSpace(u) && x.FPDFText_IsGenerated!(text, i) === 1) {
      // A space PDFium inferred from a gap between words: part of the run, as pdf.js puts it.
      if (run) {
        run.chars.push(0x20);
        run.generatedTail = true;
      } else out.space();
      continue;
    }
    const char = place(page, i, u);
    if (!char) continue;
    if (run && lineBreak) run = afterLineBreak(out, run, char);
    lineBreak = false;
    if (run && breaks(run, char)) run = out.flush(run, spacedBefore(run, char));
    if (isSpace(char.u) && !run) {
      out.space();
      continue;
    }
    run ??= out.start(i, char);
    run.chars.push(char.u);
    run.generatedTail = false;
    run.reach = Math.max(run.reach, char.right);
    if (!isSpace(char.u)) run.x1 = Math.max(run.x1, char.right);
  }
  out.flush(run, true);
  return out.page();
}

/** Right after the run, on or about its line (a superscript's neighbour): no space between them. */
function afterLineBreak(out: RunWriter, run: Run, char: Char): undefined {
  const touching = Math.abs(char.y - run.y) < run.size && char.left >= run.x1 - 0.5 * run.size && char.left <= run.x1 + 0.15 * run.size;
  out.flush(run, !touching);
  if (!touching) out.space();
  return undefined;
}

/** A new run starts at a change of text object, of line, or a jump (after a space a word gap is expected). */
function breaks(run: Run, char: Char): boolean {
  const gap = isSpace(run.chars.at(-1)!) ? 1.5 : 0.3;
  return char.object !== run.object || Math.abs(char.y - run.y) > 0.2 * run.size || char.left < run.reach - 0.5 * run.size || char.left > run.reach + gap * run.size;
}

/**
 * A space PDFium inferred before a change of font is a word boundary only over a gap: not before
 * the ")" after a superscript (pdf.js reads "cm2)", so should we).
 */
const spacedBefore = (run: Run, char: Char) => isSpace(run.chars.at(-1)!) && (!run.generatedTail || char.left - run.x1 > 0.15 * run.size);

/** The character's origin and advance in the visual frame; undefined when it has none or lies off the page. */
function place({ x, text, view, scratch, width, height }: PageContext, i: number, code: number): Char | undefined {
  // PDFium gives a hyphen it judged to end a line as 0x02 (FPDFText_IsHyphen); any other 0x02 is a raw font code.
  const u = code === 0x02 && x.FPDFText_IsHyphen!(text, i) === 1 ? 0x2d : code;
  if (!x.FPDFText_GetCharOrigin!(text, i, scratch, scratch + 8)) return undefined;
  const [ox, oy] = new Float64Array(x.memory.buffer, scratch, 2) as unknown as [number, number];
  const [a, b, c, d, e, f] = view;
  const px = a * ox + c * oy + e;
  const py = b * ox + d * oy + f;
  // Text placed off the page (a spread whose halves are two pages, each cropped from the whole)
  // is not the page's: pdf.js leaves it out too.
  if (px < -OFF_PAGE || py < -OFF_PAGE || px > width + OFF_PAGE || py > height + OFF_PAGE) return undefined;
  let left = px;
  let right = px;
  if (x.FPDFText_GetLooseCharBox!(text, i, scratch + 16)) {
    const [l, , r] = new Float32Array(x.memory.buffer, scratch + 16, 4) as unknown as [number, number, number];
    const xl = a * l + c * oy + e;
    const xr = a * r + c * oy + e;
    left = Math.min(xl, xr);
    right = Math.max(xl, xr);
  }
  return { u, object: x.FPDFText_GetTextObject!(text, i), x: px, y: py, left, right };
}

type RunWriter = ReturnType<typeof runWriter>;

/** Collects the page's items: a run's text repaired and trimmed, its font and orientation. */
function runWriter(page: PageContext) {
  const items: TextItem[] = [];
  const rotated: string[] = [];
  const fonts = new Map<number, { font: string; mono: boolean }>();
  let controlChars = 0;
  let pendingSpace = false;
  return {
    space() {
      pendingSpace = true;
    },
    start(i: number, char: Char): Run {
      const run = startRun(page, i, char, pendingSpace);
      pendingSpace = false;
      return run;
    },
    flush(run: Run | undefined, spaceAfter: boolean): undefined {
      if (!run) return undefined;
      const raw = String.fromCodePoint(...run.chars);
      controlChars += raw.match(CONTROL)?.length ?? 0;
      const str = repairText(raw).replace(CONTROL, '');
      const trimmed = str.trim();
      if (trimmed && run.upright) {
        const font = fontOf(page, run, fonts);
        const after = spaceAfter || /\s$/.test(str);
        items.push({ text: trimmed, x0: run.x0, x1: run.x1, y: run.y, size: run.size, font: font.font, mono: font.mono, spaceBefore: run.spaceBefore, spaceAfter: after });
      } else if (trimmed) rotated.push(trimmed);
      pendingSpace = spaceAfter;
      return undefined;
    },
    page: (): PageText => ({ width: page.width, height: page.height, items, rotated, controlChars }),
  };
}

/** A run's size and orientation from its first character's matrix, as pdf-items.ts judges pdf.js's. */
function startRun({ x, text, view, scratch }: PageContext, i: number, char: Char, spaceBefore: boolean): Run {
  const fontSize = x.FPDFText_GetFontSize!(text, i);
  let [a, b, c, d] = [1, 0, 0, 1];
  if (x.FPDFText_GetMatrix!(text, i, scratch + 32)) [a, b, c, d] = new Float32Array(x.memory.buffer, scratch + 32, 4) as unknown as [number, number, number, number];
  const [va, vb, vc, vd] = view;
  const A = a * va + b * vc;
  const B = a * vb + b * vd;
  const C = c * va + d * vc;
  const D = c * vb + d * vd;
  const scale = Math.hypot(C, D);
  const size = (fontSize > 0 ? fontSize : 1) * scale;
  // Upright: the x axis still points right and the y axis down in the visual frame.
  const upright = scale > 0 && A > 0 && Math.abs(B) <= 0.05 * A && Math.abs(C) <= 0.05 * scale && D < 0;
  return { chars: [], generatedTail: false, first: i, object: char.object, x0: char.left, x1: char.right, reach: char.right, y: char.y, size, upright, spaceBefore };
}

/** The run's font (its name and whether it is fixed-pitch), asked once per text object. */
function fontOf({ x, text, fontName }: PageContext, run: Run, fonts: Map<number, { font: string; mono: boolean }>) {
  let font = fonts.get(run.object);
  if (!font) {
    const flags = fontName + 252;
    const length = x.FPDFText_GetFontInfo!(text, run.first, fontName, 248, flags);
    const name = length > 0 && length <= 248 ? Buffer.from(x.memory.buffer, fontName, length - 1).toString('latin1') : '';
    const fixed = (new Int32Array(x.memory.buffer, flags, 1)[0]! & FIXED_PITCH) !== 0;
    font = { font: name || `object-${run.object}`, mono: fixed || MONO_NAME.test(name) };
    fonts.set(run.object, font);
  }
  return font;
}
