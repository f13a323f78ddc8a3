import { parsePdf } from '../src/parsing/pdf/pdf.ts';
import { assemblePdf } from '../src/parsing/pdf/pdf-assemble.ts';
import { readPageText } from '../src/parsing/pdf/pdf-items.ts';
import { openPdf } from '../src/parsing/pdf/pdf-open.ts';
import { readPage, type PageSource } from '../src/parsing/pdf/pdf-page.ts';
import { OCR_RENDER } from '../src/parsing/pdf/pdf-render.ts';
import { MEDIA_TYPES, type ParseLimits } from '../src/parsing/types.ts';

/**
 * Our PDF pipeline split where the time goes: pdf.js's text content, turning it into positioned
 * runs (pdf-items), judging each page's layer (pdf-page), and the document-wide layout
 * (pdf-assemble: segments, margins, columns, tables, headings), after one whole parse as the
 * parser process runs it. The stages are timed warm (the parse loaded the fonts and the code).
 */

const LIMITS: ParseLimits = { maxUncompressedBytes: 1 << 30, maxPages: 10_000, ocr: false };

const time = async (fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

export type StageTimes = { pages: number; engine_ms: number; items_ms: number; judge_ms: number; layout_ms: number; parse_ms: number; blocks: string[] };

export async function pipelineStages(path: string, bytes: Uint8Array): Promise<StageTimes> {
  // The whole parse first, in a fresh process as the parser processes run it (and as the engines are measured).
  const start = performance.now();
  const parsed = await parsePdf({ path, fileName: 'x.pdf', mediaType: MEDIA_TYPES.pdf, limits: LIMITS });
  const parse = performance.now() - start;
  const doc = await openPdf(bytes.slice(), 60_000);
  let engine = 0;
  let items = 0;
  let judge = 0;
  const sources: PageSource[] = [];
  const reader = { ocr: undefined, render: OCR_RENDER };
  try {
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      engine += await time(() => page.getTextContent());
      // The second reading of a page reuses its fonts: the runs' conversion is what it adds to a warm reading.
      const warm = await time(() => page.getTextContent());
      items += (await time(() => readPageText(page))) - warm;
      judge += (await time(async () => sources.push(await readPage(doc, page, reader, () => {})))) - warm;
      page.cleanup();
    }
  } finally {
    await doc.destroy();
  }
  const t = performance.now();
  assemblePdf(sources, LIMITS, []);
  const layout = performance.now() - t;
  return {
    pages: sources.length,
    engine_ms: engine,
    items_ms: items,
    judge_ms: judge - items,
    layout_ms: layout,
    parse_ms: parse,
    blocks: parsed.blocks.map((b) => b.text),
  };
}
