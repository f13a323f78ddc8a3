import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PDFDocument from 'pdfkit';
import { json, settleAll, uploadFile, withKbqa } from './kbqa-api.ts';
import { groupRssMb, ROOT } from './server-process.ts';
import { log } from './util.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PARSER_IDLE_S = 60;

/**
 * The server's resident memory, process group included (tsx's esbuild service is a child
 * process), when nothing is happening: 10 s after it is ready, after 40 s idle (V8 gives memory
 * back after about 30 s without work), right after a PDF and a scan are parsed, and once the
 * parser threads have stopped for being idle. `KBQA_BENCH_ROOT` measures another checkout.
 */
export async function idleMemoryBench() {
  const root = process.env.KBQA_BENCH_ROOT;
  const scan = join(ROOT, '..', 'shared', 'data', 'docs', 'scanned', 'phototest.tif');
  return withKbqa(
    'idle',
    async (api, pid) => {
      await sleep(10_000);
      const started = groupRssMb(pid);
      await sleep(30_000);
      const idle = groupRssMb(pid);
      const kb = (await json(api, 'POST', '/v1/knowledge-bases', { name: 'idle' })).id;
      const files = [await samplePdf(), ...(existsSync(scan) ? [scan] : [])];
      for (const file of files) await uploadFile(api, kb, file);
      await settleAll(api, kb, files.length, pid);
      const afterParsing = groupRssMb(pid);
      log(`idle_memory: waiting ${PARSER_IDLE_S + 40} s for the parser threads to stop`);
      await sleep((PARSER_IDLE_S + 40) * 1000);
      const afterParserIdle = groupRssMb(pid);
      return {
        checkout: root ?? 'this one',
        rss_10s_after_ready_mb: started,
        rss_idle_40s_mb: idle,
        rss_after_parsing_mb: afterParsing,
        parsed: files.map((f) => f.split('/').pop()),
        rss_after_parsers_idle_mb: afterParserIdle,
        target_mb: 200,
        pass: idle <= 200 && afterParserIdle <= 200,
      };
    },
    {},
    root,
  );
}

/** A three-page text PDF, so the parser threads load pdf.js. */
async function samplePdf(): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), 'kbqa-idle-')), 'sample.pdf');
  const doc = new PDFDocument();
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((r) => doc.on('end', r));
  for (let page = 1; page <= 3; page++) {
    if (page > 1) doc.addPage();
    doc.fontSize(12).text(`Page ${page}. The idle-memory benchmark parses this page so that pdf.js is loaded in a parser thread.`);
  }
  doc.end();
  await done;
  writeFileSync(path, Buffer.concat(chunks));
  return path;
}
