import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { sizeForOcr, toPgm, type GrayImage } from '../src/parsing/ocr/gray-image.ts';
import { decodePngOrJpeg } from '../src/parsing/ocr/image-decode.ts';
import { createOcrEngine, type OcrEngine } from '../src/parsing/ocr/ocr.ts';
import { pageText } from '../src/parsing/ocr/ocr-auto.ts';
import { plainTessdataDir } from '../src/parsing/ocr/tessdata-plain.ts';
import { openTiff } from '../src/parsing/ocr/tiff.ts';
import { ingestPdfBench, ocrBench } from './ingestion.bench.ts';
import { runEngineChild } from './pdf-engines.bench.ts';
import { wordAccuracy } from './layout-metrics.ts';
import { pdftotext, tesseractCli, timedMs, toolVersion } from './peer-tools.ts';
import { ROOT } from './server-process.ts';
import { log, round, withTempDir } from './util.ts';

/**
 * Our pipeline beside the tools it is measured against, all in one run on one machine, so the
 * ratios (ours / anchor) hold whatever the machine: every figure here is measured now, none is
 * carried over. An anchor that is not installed is reported as skipped, with the reason.
 *   PDF: the shared 400-page manual; pdf.js alone (open, then the text of every page, one
 *        thread, in a process of its own with pdf.js loaded as is, as our parser processes load
 *        it: read in this process, through the TypeScript loader, it took about half as long
 *        again, a flattering anchor), pdftotext, and our upload→ready through the HTTP API
 *        (ingestPdfBench).
 *   OCR: the shared scans, each the very gray image our parser hands OCR; the tesseract command
 *        with our model and with the system's own (Debian ships tessdata_fast), against our
 *        engines (tesseract.js; the system tesseract behind our engine when installed) and the
 *        pipeline's parse time per OCR'd page (ocrBench: detection of languages included).
 */

const DOCS = join(ROOT, '..', 'shared', 'data', 'docs');
const PDF = join(DOCS, 'pdf', 'irs-manual-transmittal-400p.pdf');
const SCANS = ['phototest.tif', 'eurotext.tif', 'testocr.png', 'layout-parser-paper-with-table.jpg'];

const ratio = (ours: number | undefined, anchor: number | undefined) => (ours && anchor ? round(ours / anchor, 2) : null);

async function pdfPeers() {
  if (!existsSync(PDF)) return { skipped: `needs ${PDF}` };
  log('peers: pdf.js alone');
  const pdfjs = runEngineChild('pdfjs', [PDF]).files[0]!;
  const { pages } = pdfjs;
  const pdfjsS = pdfjs.seconds;
  const poppler = await toolVersion('pdftotext', ['-v']);
  let pdftotextS: number | undefined;
  if ('version' in poppler) {
    log('peers: pdftotext');
    pdftotextS = (await timedMs(() => pdftotext(PDF))).ms / 1000;
  }
  log('peers: our pipeline, upload to ready');
  const ours = await ingestPdfBench();
  const oursS = 'upload_to_ready_s' in ours ? ours.upload_to_ready_s : undefined;
  return {
    file: 'irs-manual-transmittal-400p.pdf',
    pages,
    pdfjs_alone: { seconds: round(pdfjsS, 2), pages_per_s: round(pages / pdfjsS), chars: pdfjs.text.replace(/\n/g, '').length },
    pdftotext: pdftotextS === undefined ? poppler : { ...poppler, seconds: round(pdftotextS, 2), pages_per_s: round(pages / pdftotextS) },
    ours_upload_to_ready: ours,
    ratios_ours_over: { pdfjs_alone: ratio(oursS, pdfjsS), pdftotext: ratio(oursS, pdftotextS) },
  };
}

async function scanImage(file: string): Promise<GrayImage> {
  const bytes = readFileSync(join(DOCS, 'scanned', file));
  return sizeForOcr(await (file.endsWith('.tif') ? openTiff(bytes).page(0) : decodePngOrJpeg(bytes)));
}

/** Seconds of a second reading (the engine's workers started by the first), and its text. */
async function engineRead(engine: OcrEngine, image: GrayImage) {
  await engine.recognize(image, { languages: ['eng'] });
  const { value, ms } = await timedMs(() => engine.recognize(image, { languages: ['eng'] }));
  return { seconds: ms / 1000, text: pageText(value) };
}

type Reading = { seconds: number; text: string };
const figure = (r: Reading | undefined, truth: string | undefined) =>
  r && { seconds: round(r.seconds, 2), ...(truth !== undefined && { word_accuracy: round(wordAccuracy(truth, r.text), 3) }) };

async function ocrPeers(dir: string) {
  if (!SCANS.every((f) => existsSync(join(DOCS, 'scanned', f)))) return { skipped: `needs ${join(DOCS, 'scanned')}` };
  const native = await toolVersion('tesseract', ['--version']);
  // As parser processes run them: KBQA_OCR_READERS, one reading a core by default.
  const readers = loadConfig(process.env).ingestion.ocrReaders;
  const wasm = createOcrEngine({ engine: 'wasm', readers });
  const ours = 'version' in native ? createOcrEngine({ engine: 'native', readers }) : undefined;
  const pages: Record<string, object> = {};
  try {
    for (const file of SCANS) {
      log(`peers: ${file}`);
      const image = await scanImage(file);
      const pgm = join(dir, `${file}.pgm`);
      writeFileSync(pgm, toPgm(image));
      const gt = join(DOCS, 'scanned', file.replace(/\.\w+$/, '.gt.txt'));
      const truth = existsSync(gt) ? readFileSync(gt, 'utf8') : undefined;
      const cli = async (tessdata: string | null): Promise<Reading> => {
        const { value, ms } = await timedMs(() => tesseractCli(pgm, tessdata));
        return { seconds: ms / 1000, text: value };
      };
      const sameModel = ours && (await cli(plainTessdataDir(['eng'])));
      const systemModel = ours && (await cli(null));
      const tesseractJs = await engineRead(wasm, image);
      const ourNative = ours && (await engineRead(ours, image));
      pages[file] = {
        pixels: `${image.width}×${image.height}`,
        tesseract_cli_our_model: figure(sameModel, truth),
        tesseract_cli_system_model: figure(systemModel, truth),
        ours_tesseract_js: figure(tesseractJs, truth),
        ours_native_engine: figure(ourNative, truth),
        ratios_tesseract_js_over: { cli_our_model: ratio(tesseractJs.seconds, sameModel?.seconds), cli_system_model: ratio(tesseractJs.seconds, systemModel?.seconds) },
        ratio_native_engine_over_cli_our_model: ratio(ourNative?.seconds, sameModel?.seconds),
      };
    }
  } finally {
    await Promise.all([wasm.close(), ours?.close()]);
  }
  return { tesseract: native, languages: 'eng', readers, pages };
}

/** The PDF half alone (issue 43 item 16): pdf.js alone and our upload→ready, in one run. */
export async function pdfPeersBench() {
  return { pdf: await pdfPeers(), pass: true };
}

export async function peersBench() {
  const pdf = await pdfPeers();
  const ocr = await withTempDir('peers', ocrPeers);
  log('peers: our pipeline on the scans');
  const pipeline = await ocrBench();
  return { pdf, ocr, ocr_pipeline: pipeline, pass: true };
}
