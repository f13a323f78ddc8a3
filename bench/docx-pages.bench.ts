import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openArchive } from '../src/parsing/office/zip-archive.ts';
import { checkedPart } from '../src/parsing/office/zip-safety.ts';
import type { ParsedDocument } from '../src/parsing/types.ts';
import { buildJournal } from '../test/helpers/journal-docx.ts';
import { parsePath } from '../test/unit/parsing-fixtures.ts';
import { convertToPdf, libreOfficeVersion, pdfPageTexts } from './libreoffice-pdf.ts';
import { log, round, withTempDir } from './util.ts';

/**
 * Word page numbers (issue 36 item 2): for every DOCX of ../shared/data/docs/docx and the
 * generated journal (Word's layout in its first essays only), the page the parser gives each
 * paragraph, heading and list item against the page of LibreOffice's PDF its text is on. Block
 * and page text are compared as letters and digits only, on a prefix of the block; the PDF is
 * searched forward from the last match, so a repeated prefix finds the next occurrence.
 * LibreOffice lays out with other fonts than Word: its pages are a second opinion. Where the file
 * holds Word's rendered breaks, Word's own page count (docProps <Pages>) and the pages those
 * breaks make are reported beside it.
 */

const DOCX_DIR = join(import.meta.dirname, '..', '..', 'shared', 'data', 'docs', 'docx');
const PREFIX = 40;
const SHORTEST = 15;
const MATCHED_KINDS = new Set(['paragraph', 'heading', 'list_item', 'quote', 'caption']);

const normalised = (text: string) => text.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

type Placed = { text: string; parsed: number; reference: number };

/** Each block's parsed page beside the PDF page its text starts on; blocks not found are left out. */
function placeBlocks(doc: ParsedDocument, pages: string[]): { eligible: number; placed: Placed[] } {
  const texts = pages.map(normalised);
  const starts = texts.map((_, i) => texts.slice(0, i).reduce((sum, t) => sum + t.length, 0));
  const whole = texts.join('');
  const pageAt = (offset: number) => starts.filter((start) => start <= offset).length;
  let from = 0;
  let eligible = 0;
  const placed: Placed[] = [];
  for (const block of doc.blocks) {
    const prefix = normalised(block.text).slice(0, PREFIX);
    if (!MATCHED_KINDS.has(block.kind) || prefix.length < SHORTEST) continue;
    eligible++;
    let at = whole.indexOf(prefix, from);
    if (at < 0) at = whole.indexOf(prefix);
    if (at < 0) continue;
    from = at + prefix.length;
    placed.push({ text: block.text.slice(0, 40), parsed: block.page, reference: pageAt(at) });
  }
  return { eligible, placed };
}

function errors(pairs: { parsed: number; reference: number }[]) {
  const gaps = pairs.map((p) => Math.abs(p.parsed - p.reference));
  if (gaps.length === 0) return { exact_share: null, mean_abs_error: null, max_error: null };
  return {
    exact_share: round(gaps.filter((g) => g === 0).length / gaps.length, 3),
    mean_abs_error: round(gaps.reduce((a, b) => a + b, 0) / gaps.length, 2),
    max_error: Math.max(...gaps),
  };
}

async function wordLayout(path: string) {
  const archive = await openArchive(path);
  try {
    const body = (await checkedPart(archive, 'word/document.xml'))?.toString('utf8') ?? '';
    const app = (await checkedPart(archive, 'docProps/app.xml'))?.toString('utf8') ?? '';
    const renderedBreaks = body.split('<w:lastRenderedPageBreak').length - 1;
    const pages = /<Pages>(\d+)<\/Pages>/.exec(app)?.[1];
    return { rendered_breaks: renderedBreaks, word_pages: pages === undefined ? null : Number(pages) };
  } finally {
    archive.close();
  }
}

async function measure(path: string) {
  const started = performance.now();
  const pages = await pdfPageTexts(convertToPdf(path));
  const renderSeconds = (performance.now() - started) / 1000;
  // The parse's time: the best of three, since other work shares the machine.
  let doc = await parsePath(path);
  let parseMs = Infinity;
  for (let run = 0; run < 3; run++) {
    const t0 = performance.now();
    doc = await parsePath(path);
    parseMs = Math.min(parseMs, performance.now() - t0);
  }
  const { eligible, placed } = placeBlocks(doc, pages);
  return {
    doc,
    placed,
    figures: {
      ...(await wordLayout(path)),
      libreoffice_pages: pages.length,
      parsed_pages: doc.pageCount,
      page_estimated: Boolean(doc.pageEstimated),
      blocks: eligible,
      matched: placed.length,
      ...errors(placed),
      render_s: round(renderSeconds, 1),
      parse_ms: round(parseMs),
    },
  };
}

export async function docxPagesBench() {
  const version = libreOfficeVersion();
  if (!version) return { pass: true, skipped: 'soffice not found: apt-get install -y --no-install-recommends libreoffice-writer-nogui (for this benchmark only)' };
  const files: Record<string, unknown> = {};
  if (existsSync(DOCX_DIR)) {
    for (const name of readdirSync(DOCX_DIR).filter((f) => f.endsWith('.docx')).sort()) {
      log(`docx_pages: ${name}`);
      files[name] = await measure(join(DOCX_DIR, name)).then(
        (m) => m.figures,
        (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
      );
    }
  } else files.shared = { skipped: `${DOCX_DIR} not found: only the generated journal is measured` };

  // Ten essays: LibreOffice 7.4 did not finish the fourteen of the unit test's journal in 10 minutes.
  const journal = buildJournal({ essays: 10, renderedEssays: 3 });
  const generated = await withTempDir('docx-pages', async (dir) => {
    const path = join(dir, 'journal.docx');
    writeFileSync(path, journal.docx);
    log('docx_pages: generated journal');
    const { doc, placed, figures } = await measure(path);
    // The generator's own layout is the truth the fixture was written to (its rendered breaks).
    const truth = journal.paragraphs.map((p) => ({ p, block: doc.blocks.find((b) => b.text.startsWith(p.text.slice(0, 40))) }));
    const againstTruth = truth.filter((x) => x.block).map(({ p, block }) => ({ parsed: block!.page, reference: p.page }));
    const libreOfficeAgainstTruth = truth.flatMap(({ p }) => {
      const match = placed.find((x) => p.text.startsWith(x.text));
      return match ? [{ parsed: match.reference, reference: p.page }] : [];
    });
    return {
      ...figures,
      generator_pages: journal.pages,
      parser_vs_generator: errors(againstTruth),
      parser_vs_generator_unlaid_part: errors(truth.filter((x) => x.block && !x.p.laidOut).map(({ p, block }) => ({ parsed: block!.page, reference: p.page }))),
      libreoffice_vs_generator: errors(libreOfficeAgainstTruth),
    };
  });
  files['generated journal (10 essays, Word layout in the first 3)'] = generated;
  return { pass: true, libreoffice: version, prefix_chars: PREFIX, files };
}
