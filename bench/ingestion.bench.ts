import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hasSciFact, loadSciFact } from './scifact.ts';
import { peakRssMb, ROOT, startKbqa, stopChild, waitFor } from './server-process.ts';
import { freePort, log, round, withTempDir } from './util.ts';

const DOCS = join(ROOT, '..', 'shared', 'data', 'docs');
const CLIENTS = 16;

type Api = { base: string; headers: Record<string, string> };

async function json(api: Api, method: string, path: string, body?: unknown) {
  const res = await fetch(api.base + path, { method, headers: { ...api.headers, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return (await res.json()) as any;
}

async function uploadFile(api: Api, kb: string, path: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(readFileSync(path))]), path.split('/').pop()!);
  const res = await fetch(`${api.base}/v1/knowledge-bases/${kb}/documents`, { method: 'POST', headers: api.headers, body: form });
  return ((await res.json()) as any).data[0].id as string;
}

/** Polls the list until every document of the knowledge base is ready or failed; samples peak memory meanwhile. */
async function settleAll(api: Api, kb: string, expected: number, pid: number, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let done = 0;
    const failed: { name: string; error: unknown }[] = [];
    let after: string | undefined;
    do {
      const page = await json(api, 'GET', `/v1/knowledge-bases/${kb}/documents?limit=100&order=asc${after ? `&after=${after}` : ''}`);
      done += page.data.filter((d: any) => d.status === 'ready' || d.status === 'failed').length;
      failed.push(...page.data.filter((d: any) => d.status === 'failed').map((d: any) => ({ name: d.name, error: d.error })));
      after = page.has_more ? page.last_id : undefined;
    } while (after);
    if (done >= expected) return { failed, peakRssMb: peakRssMb(pid) };
    if (Date.now() > deadline) throw new Error(`only ${done}/${expected} documents settled`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function withServer<T>(fn: (api: Api, pid: number) => Promise<T>, env: Record<string, string> = {}): Promise<T> {
  return withTempDir('ingest', async (dataDir) => {
    const child = await startKbqa(dataDir, await freePort(), { KBQA_RATE_LIMIT_PER_MINUTE: '0', ...env });
    try {
      // Ready, not just alive: the parser threads have loaded pdf.js and the Office parsers.
      await waitFor(child, `${child.base}/readyz`);
      return await fn({ base: child.base, headers: child.headers }, child.proc.pid!);
    } finally {
      await stopChild(child);
    }
  });
}

/** All 5,183 SciFact abstracts uploaded as JSON text by 16 clients, until every one is ready. */
export async function ingestSciFactBench() {
  if (!hasSciFact()) return { skipped: 'needs ../shared/data/bench/scifact', pass: true };
  const { corpus } = loadSciFact();
  return withServer(async (api, pid) => {
    const kb = (await json(api, 'POST', '/v1/knowledge-bases', { name: 'scifact' })).id;
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < corpus.length) {
          const doc = corpus[next++]!;
          await json(api, 'POST', `/v1/knowledge-bases/${kb}/documents`, { name: `${doc.id}.txt`, text: `${doc.title}\n\n${doc.text}` });
        }
      }),
    );
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
    for (const file of [...warmUps, ...files]) {
      const t0 = performance.now();
      const id = await uploadFile(api, kb, file);
      let doc: any;
      do {
        await new Promise((r) => setTimeout(r, 50));
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
      target_seconds_per_page: 3,
      target_peak_rss_mb: 1024,
      parser_threads: 1,
      pass: worst <= 3 && (peakRssMb(pid) ?? 0) <= 1024,
    };
    // One parser thread (the default, set here all the same), so the warm-ups warm the engine every later page uses.
  }, { KBQA_PARSER_THREADS: '1' });
}
