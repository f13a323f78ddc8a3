import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { hasSciFact, loadSciFact, sciFactUpload } from './scifact.ts';
import { type Api, json, settleAll, uploadFile, uploadTexts, withKbqa } from './kbqa-api.ts';
import { groupRssMb, peakRssMb, ROOT } from './server-process.ts';
import { log, round } from './util.ts';

const DOCS = join(ROOT, '..', 'shared', 'data', 'docs');
const CLIENTS = 16;

const withServer = <T>(fn: (api: Api, pid: number) => Promise<T>, env: Record<string, string> = {}) => withKbqa('ingest', fn, env);

/** All 5,183 SciFact abstracts uploaded as JSON text by 16 clients, until every one is ready. */
export async function ingestSciFactBench() {
  if (!hasSciFact()) return { skipped: 'needs ../shared/data/bench/scifact', pass: true };
  const { corpus } = loadSciFact();
  return withServer(async (api, pid) => {
    const kb = (await json(api, 'POST', '/v1/knowledge-bases', { name: 'scifact' })).id;
    const t0 = performance.now();
    await uploadTexts(api, kb, corpus.map(sciFactUpload), CLIENTS);
    const uploadedS = (performance.now() - t0) / 1000;
    log(`ingest_scifact: ${corpus.length} uploads accepted in ${round(uploadedS, 1)} s`);
    const { failed, peakRssMb } = await settleAll(api, kb, corpus.length, pid);
    const seconds = (performance.now() - t0) / 1000;
    const kbDoc = await json(api, 'GET', `/v1/knowledge-bases/${kb}`);
    return {
      documents: corpus.length,
      clients: CLIENTS,
      uploads_accepted_s: round(uploadedS, 1),
      all_ready_s: round(seconds, 1),
      documents_per_s: round(corpus.length / seconds),
      chunks: kbDoc.chunk_count,
      failed,
      peak_rss_mb: peakRssMb,
      target_s: 60,
      pass: seconds <= 60 && failed.length === 0,
    };
  });
}

/** The 400-page IRS manual from upload to ready. */
export async function ingestPdfBench() {
  const path = join(DOCS, 'pdf', 'irs-manual-transmittal-400p.pdf');
  if (!existsSync(path)) return { skipped: 'needs ../shared/data/docs', pass: true };
  return withServer(async (api, pid) => {
    const kb = (await json(api, 'POST', '/v1/knowledge-bases', { name: 'pdf' })).id;
    const t0 = performance.now();
    const id = await uploadFile(api, kb, path);
    const { peakRssMb } = await settleAll(api, kb, 1, pid);
    const seconds = (performance.now() - t0) / 1000;
    const doc = await json(api, 'GET', `/v1/knowledge-bases/${kb}/documents/${id}`);
    return {
      status: doc.status,
      pages: doc.page_count,
      chunks: doc.chunk_count,
      upload_to_ready_s: round(seconds, 2),
      pages_per_s: round(doc.page_count / seconds),
      parse_ms: doc.timings.parse_ms,
      index_ms: doc.timings.index_ms,
      peak_rss_mb: peakRssMb,
      target_pages_per_s: 100,
      pass: doc.status === 'ready' && doc.page_count / seconds >= 100,
    };
  });
}

/**
 * Every scanned page in docs/scanned, OCR'd through the pipeline. A first small scan starts the
 * parser thread's OCR engine (about 1 s, once per thread); after it, each file's parse time per
 * OCR'd page is the figure, next to its time from upload to ready.
 */
export async function ocrBench() {
  const files = ['phototest.tif', 'eurotext.tif', 'testocr.png', 'layout-parser-paper-with-table.jpg', 'loremipsum-flat.pdf', 'pdf-with-ocr-text.pdf'].map((f) =>
    join(DOCS, 'scanned', f),
  );
  if (!files.every(existsSync)) return { skipped: 'needs ../shared/data/docs', pass: true };
  return withServer(async (api, pid) => {
    const kb = (await json(api, 'POST', '/v1/knowledge-bases', { name: 'ocr' })).id;
    const perFile: Record<string, { upload_to_ready_s: number; parse_s_per_ocr_page: number; pages: number; ocr_pages: number; status: string }> = {};
    const warmUps = [join(DOCS, 'scanned', 'cosmic.png'), join(DOCS, 'pdf', 'testPDF.pdf')];
    // OCR runs in parser processes (and native tesseract processes beneath them): the server's own
    // peak says nothing of them, so the whole process group is sampled at every poll.
    let groupPeakMb = 0;
    for (const file of [...warmUps, ...files]) {
      const t0 = performance.now();
      const id = await uploadFile(api, kb, file);
      let doc: any;
      do {
        await new Promise((r) => setTimeout(r, 50));
        groupPeakMb = Math.max(groupPeakMb, groupRssMb(pid));
        doc = await json(api, 'GET', `/v1/knowledge-bases/${kb}/documents/${id}`);
      } while (doc.status !== 'ready' && doc.status !== 'failed');
      const entry = {
        upload_to_ready_s: round((performance.now() - t0) / 1000, 2),
        parse_s_per_ocr_page: round((doc.timings.parse_ms ?? 0) / 1000 / Math.max(1, doc.ocr_pages.length), 2),
        pages: doc.page_count,
        ocr_pages: doc.ocr_pages.length,
        status: doc.status,
      };
      perFile[`${warmUps.includes(file) ? 'warm-up: ' : ''}${file.split('/').pop()!}`] = entry;
    }
    const ocrd = Object.entries(perFile).filter(([name, f]) => !name.startsWith('warm-up') && f.ocr_pages > 0);
    const worst = Math.max(...ocrd.map(([, f]) => f.parse_s_per_ocr_page));
    return {
      files: perFile,
      worst_parse_s_per_ocr_page: round(worst, 2),
      peak_rss_mb: peakRssMb(pid),
      peak_group_rss_mb_sampled: groupPeakMb,
      target_seconds_per_page: 1.5,
      target_peak_rss_mb: 1024,
      parser_threads: 1,
      ocr_readers: loadConfig(process.env).ingestion.ocrReaders,
      pass: worst <= 1.5 && Math.max(peakRssMb(pid) ?? 0, groupPeakMb) <= 1024,
    };
    // One parser thread (the default, set here all the same), so the warm-ups warm the engine every later page uses.
  }, { KBQA_PARSER_THREADS: '1' });
}
