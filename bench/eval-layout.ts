// Reading order and OCR quality, at the parser (no HTTP server: the figures are about text, and
// the parser entry is the one the service's parse consumer uses: detect by bytes, then dispatch).
//   (a) the shared scans with ground truth (../shared/data/docs/scanned/*.gt.txt);
//   (b) generated 1-, 2- and 3-column pages with known text (bench/layout-pages.ts), parsed as a
//       text PDF, as an image-only (scanned) PDF, and page 1 as a PNG upload (also turned by a
//       few degrees, as a photographed page is).
// Each case: word accuracy and 5-gram recall against the reference (bench/layout-metrics.ts).
//   node --import tsx bench/eval-layout.ts
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { detectMediaType } from '../src/parsing/detect.ts';
import { parserFor } from '../src/parsing/dispatch.ts';
import { closeOcr } from '../src/parsing/ocr/ocr.ts';
import { DEFAULT_LIMITS } from '../src/parsing/types.ts';
import { DOCS_DIR } from './docs-questions.ts';
import { nGramRecall, wordAccuracy } from './layout-metrics.ts';
import { layoutPdf } from './layout-pages.ts';
import { imageOnlyPdf, renderPdfPages, turned } from './layout-render.ts';
import { log, machineInfo, round, withTempDir } from './util.ts';

type Case = { name: string; group: string; words: number; word_accuracy: number; recall_5gram: number; seconds: number };

/**
 * The shared scans are all clean prints (no photo, no skew); eurotext's is in five languages, so
 * its figure also says how the OCR languages do, and it is reported on its own.
 */
const scanGroup = (image: string) => (image.startsWith('eurotext') ? 'scan-clean-multilingual' : 'scan-clean');

async function parseText(path: string): Promise<string> {
  const fileName = path.split('/').pop()!;
  const detected = await detectMediaType(path, fileName);
  if (!detected.ok) throw new Error(`${fileName}: ${detected.message}`);
  const parse = await parserFor(detected.mediaType);
  const doc = await parse({ path, fileName, mediaType: detected.mediaType, limits: DEFAULT_LIMITS });
  return doc.blocks.map((b) => b.text).join('\n');
}

async function measure(name: string, group: string, path: string, reference: string): Promise<Case> {
  const t0 = performance.now();
  const text = await parseText(path);
  const row = {
    name,
    group,
    words: reference.split(/\s+/).filter(Boolean).length,
    word_accuracy: round(wordAccuracy(reference, text), 3),
    recall_5gram: round(nGramRecall(reference, text), 3),
    seconds: round((performance.now() - t0) / 1000, 1),
  };
  log(`eval-layout: ${name} accuracy ${row.word_accuracy} recall ${row.recall_5gram}`);
  if (process.env.KBQA_LAYOUT_DUMP) writeFileSync(join(process.env.KBQA_LAYOUT_DUMP, `${name.replace(/\W+/g, '_')}.txt`), text);
  return row;
}

async function sharedScans(): Promise<Case[]> {
  const dir = join(DOCS_DIR, 'scanned');
  if (!existsSync(dir)) return [];
  const rows: Case[] = [];
  for (const truth of readdirSync(dir).filter((f) => f.endsWith('.gt.txt')).sort()) {
    const stem = truth.slice(0, -'.gt.txt'.length);
    const image = readdirSync(dir).find((f) => f.startsWith(`${stem}.`) && !f.endsWith('.gt.txt'));
    if (!image) continue;
    rows.push(await measure(`scanned/${image}`, scanGroup(image), join(dir, image), readFileSync(join(dir, truth), 'utf8')));
  }
  return rows;
}

/** Degrees a photographed page stands askew by: enough to run lines of two columns into each other. */
const PHOTO_TURN = 2.5;

async function generated(dir: string): Promise<Case[]> {
  const rows: Case[] = [];
  for (const columns of [1, 2, 3]) {
    const { pdf, pages } = await layoutPdf({ columns, seed: columns });
    const reference = pages.join('\n');
    const kind = columns === 1 ? 'single' : 'multi';
    const textPath = join(dir, `columns-${columns}.pdf`);
    writeFileSync(textPath, pdf);
    rows.push(await measure(`${columns}-column text PDF (3 pages)`, `${kind}-text`, textPath, reference));
    const pngs = await renderPdfPages(pdf);
    const scanPath = join(dir, `columns-${columns}-scan.pdf`);
    writeFileSync(scanPath, await imageOnlyPdf(pngs));
    rows.push(await measure(`${columns}-column scanned PDF (3 pages)`, `${kind}-scan`, scanPath, reference));
    const pngPath = join(dir, `columns-${columns}.png`);
    writeFileSync(pngPath, pngs[0]!);
    rows.push(await measure(`${columns}-column PNG (page 1)`, `${kind}-scan`, pngPath, pages[0]!));
    if (columns === 1) continue;
    const photoPath = join(dir, `columns-${columns}-photo.png`);
    writeFileSync(photoPath, await turned(pngs[0]!, PHOTO_TURN));
    rows.push(await measure(`${columns}-column PNG turned ${PHOTO_TURN}° (page 1)`, 'multi-photo', photoPath, pages[0]!));
  }
  return rows;
}

const mean = (xs: number[]) => (xs.length ? round(xs.reduce((a, b) => a + b, 0) / xs.length, 3) : null);

function aggregate(rows: Case[]) {
  const groups = [...new Set(rows.map((r) => r.group))];
  return Object.fromEntries(
    groups.map((g) => {
      const of = rows.filter((r) => r.group === g);
      return [g, { cases: of.length, word_accuracy: mean(of.map((r) => r.word_accuracy)), recall_5gram: mean(of.map((r) => r.recall_5gram)) }];
    }),
  );
}

export async function runLayoutSuite(): Promise<object> {
  try {
    const scans = await sharedScans();
    const made = await withTempDir('eval-layout', generated);
    const cases = [...scans, ...made];
    return {
      suite: 'layout',
      ...(scans.length ? {} : { scans_skipped: `needs ${join(DOCS_DIR, 'scanned')}` }),
      normalisation: 'NFKC, curly quotes and dashes to ASCII, dot leaders dropped, whitespace collapsed; case-sensitive',
      groups: aggregate(cases),
      cases,
    };
  } finally {
    await closeOcr();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runLayoutSuite()
    .then((result) => process.stdout.write(`${JSON.stringify({ machine: machineInfo(), ...result }, null, 2)}\n`))
    .catch((error: unknown) => {
      process.stderr.write(`eval-layout failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    });
}
