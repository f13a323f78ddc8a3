import { createBlockBuilder } from '../block-builder.ts';
import { scopeHeadings, type Placed } from './pdf-heading-scope.ts';
import type { BodyStyle } from './pdf-headings.ts';
import type { TextItem } from './pdf-items.ts';
import { ocrSegmentBlocks } from '../ocr/ocr-blocks.ts';
import { layoutPage } from './pdf-layout.ts';
import { dropMargins, repeatedMargins } from './pdf-margins.ts';
import { inPageFractions, type PageBlock } from './pdf-page-block.ts';
import type { PageSource } from './pdf-page.ts';
import { buildSegments } from './pdf-segments.ts';
import { weightedMode } from './pdf-stats.ts';
import { MEDIA_TYPES, ParseFailure, type ParsedDocument, type ParseLimits } from '../types.ts';

/**
 * The document-wide steps, once every page is read: drop running headers and footers, lay out
 * each page, then tell headings from body text by the body style of the whole document, and
 * keep contents pages and running lines from opening sections.
 */
export function assemblePdf(sources: readonly PageSource[], limits: ParseLimits, warnings: string[]): ParsedDocument {
  const segmented = sources.map((source) =>
    source.kind === 'text' ? { segments: buildSegments(source.text.items), height: source.text.height, width: source.text.width, rotated: source.text.rotated } : undefined,
  );
  // OCR'd pages count too: a scanned book repeats its running lines like a typeset one.
  const laidOut = [...segmented.filter((p) => p !== undefined), ...sources.flatMap((s) => (s.kind === 'ocr' && s.layout ? [s.layout] : []))];
  const repeated = laidOut.length >= 3 ? repeatedMargins(laidOut) : new Set<string>();
  const body = bodyStyle(sources.flatMap((s) => (s.kind === 'text' ? s.text.items : [])));

  const placed: Placed[] = [];
  const ocrPages: number[] = [];
  sources.forEach((source, i) => {
    const page = i + 1;
    const layout = segmented[i];
    if (layout) {
      for (const block of layoutPage(dropMargins(layout, repeated))) placed.push({ page, block: inPageFractions(block, layout.width, layout.height) });
      // Rotated runs (margin stamps, axis titles) have no place in the reading order: page end.
      if (layout.rotated.length) placed.push({ page, block: { kind: 'paragraph', text: layout.rotated.join(' '), size: 0, font: '', lines: 1 } });
    } else if (source.kind === 'ocr') {
      ocrPages.push(page);
      const blocks = source.layout && repeated.size ? ocrSegmentBlocks(dropMargins(source.layout, repeated), source.layout) : source.blocks;
      for (const block of blocks) placed.push({ page, block });
    }
  });

  const { levels, tocStarts, toc } = scopeHeadings(placed, body);
  const builder = createBlockBuilder();
  let tocMark: number | undefined;
  placed.forEach(({ page, block }, i) => {
    if (tocStarts.has(i)) tocMark = builder.count;
    else if (tocMark !== undefined && !toc.has(page)) {
      builder.closeHeadingsSince(tocMark);
      tocMark = undefined;
    }
    const level = levels[i];
    if (level !== undefined) builder.heading(block.text, level, page, block.boxes);
    else builder.add(block.kind, block.text, page, block.level, block.boxes);
  });
  if (builder.count === 0) {
    if (sources.some((s) => s.kind === 'none' && s.ocrTimedOut)) throw new ParseFailure('timeout', 'OCR of the scanned pages did not finish in time.');
    const why = limits.ocr ? 'it has no text layer and OCR found no text' : 'it has no text layer and OCR is off';
    throw new ParseFailure('empty', `The PDF contains no text: ${why}.`);
  }
  const doc = builder.finish({ mediaType: MEDIA_TYPES.pdf, pageCount: sources.length, warnings, limits });
  return { ...doc, ocrPages };
}


/** The size and font most characters are set in, and how the characters spread over fonts. */
function bodyStyle(items: readonly TextItem[]): BodyStyle {
  const size = weightedMode(items.map((i) => [Math.round(i.size * 2) / 2, i.text.length] as const)) ?? 0;
  const font = weightedMode(items.filter((i) => Math.round(i.size * 2) / 2 === size).map((i) => [i.font, i.text.length] as const)) ?? '';
  const total = items.reduce((n, i) => n + i.text.length, 0) || 1;
  const fontShare = new Map<string, number>();
  for (const item of items) fontShare.set(item.font, (fontShare.get(item.font) ?? 0) + item.text.length / total);
  return { size, font, fontShare };
}
