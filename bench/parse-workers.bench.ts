import { randomUUID } from 'node:crypto';
import { dropNamespace, groupsSettled, mixedProcessEnv, type MixedProcess, parsedBy, startOwner, startWorker, stop, textPdf } from '../test/helpers/parse-workers.ts';
import { pdf, textImage } from '../test/unit/parsing-pdf-fixtures.ts';
import { type Api, json, settleAll } from './kbqa-api.ts';
import { loadAvg, log, round, withTempDir } from './util.ts';

/**
 * The mixed profile's parse workers (docs/deployment.md, "The mixed profile"): the same PDFs from
 * upload to ready with one process, and with the owner plus one parse worker on its data
 * directory, alternated. Each process parses one large file at a time (KBQA_PARSER_THREADS=1), so
 * the second process is a second parser and nothing else: on a host with the cores for it,
 * parsing-bound ingestion should approach half the time; the owner still indexes everything.
 */
const DOCS = Number(process.env.KBQA_BENCH_WORKER_DOCS ?? 16);
const PAGES = Number(process.env.KBQA_BENCH_WORKER_PAGES ?? 40);
/** KBQA_BENCH_WORKER_SCANS=1: scanned pages (images only, read by OCR, about a second each) instead of text PDFs. */
const SCANS = process.env.KBQA_BENCH_WORKER_SCANS === '1';
const ADMIN = 'bench-parse-workers-0123456789abcdef';

/** A scanned PDF: each page an image of three lines no other document has. */
const scannedPdf = (label: string, pages: number) =>
  pdf((doc) => {
    for (let p = 1; p <= pages; p++) {
      if (p > 1) doc.addPage();
      const { png } = textImage([`Report ${label} page ${p}`, `the harbour ${p * 7} ferries leave`, `at ${p + 5} o'clock every morning.`]);
      doc.image(png, 0, 0, { width: 612, height: 792 });
    }
  });

async function oneRun(brokers: string, pdfs: Buffer[], withWorker: boolean) {
  return withTempDir('parse-workers', async (dataDir) => {
    const namespace = `bench-workers-${randomUUID().slice(0, 8)}.`;
    const env = mixedProcessEnv(dataDir, ADMIN, { KAFKA_BROKERS: brokers, KAFKA_NAMESPACE: namespace, KAFKA_TOPIC_PARTITIONS: '4' });
    const processes: MixedProcess[] = [];
    try {
      const owner = await startOwner(env);
      processes.push(owner);
      if (withWorker) processes.push(await startWorker(env));
      await groupsSettled(brokers, namespace, processes.length);
      const api: Api = { base: owner.url, headers: { authorization: `Bearer ${ADMIN}` } };
      const kb = (await json(api, 'POST', '/v1/knowledge-bases', { name: 'parse workers' })).id;
      const loadBefore = loadAvg();
      const started = performance.now();
      await Promise.all(
        pdfs.map(async (bytes, i) => {
          const form = new FormData();
          form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), `report-${i}.pdf`);
          const res = await fetch(`${owner.url}/v1/knowledge-bases/${kb}/documents`, { method: 'POST', headers: api.headers, body: form });
          if (!res.ok) throw new Error(`upload ${i}: ${res.status} ${await res.text()}`);
        }),
      );
      const { failed } = await settleAll(api, kb, pdfs.length, owner.child.pid!, 600_000);
      const seconds = round((performance.now() - started) / 1000, 2);
      const parsed = await Promise.all(processes.map((p) => parsedBy(p)));
      return { processes: processes.length, seconds, failed: failed.length, parsed_per_process: parsed, load_before: loadBefore, load_after: loadAvg() };
    } finally {
      for (const p of processes.reverse()) await stop(p);
      await dropNamespace(brokers, namespace).catch(() => {});
    }
  });
}

export async function parseWorkersBench() {
  const brokers = process.env.KAFKA_BROKERS;
  if (!brokers) return { pass: true, skipped: 'KAFKA_BROKERS not set; run `npm run kafka:up` and export the line it prints' };
  const pdfs = await Promise.all(Array.from({ length: DOCS }, (_, i) => (SCANS ? scannedPdf(`${i}`, PAGES) : textPdf(`bench report ${i}`, PAGES))));
  const runs: Awaited<ReturnType<typeof oneRun>>[] = [];
  for (let round_ = 0; round_ < 2; round_++) {
    for (const withWorker of [false, true]) {
      const result = await oneRun(brokers, pdfs, withWorker);
      log(`parse_workers: ${result.processes} process(es), ${DOCS} ${SCANS ? 'scanned ' : ''}PDFs of ${PAGES} pages ready in ${result.seconds} s, parsed ${result.parsed_per_process.join(' + ')}, load ${result.load_before} → ${result.load_after}`);
      runs.push(result);
    }
  }
  const best = (n: number) => Math.min(...runs.filter((r) => r.processes === n).map((r) => r.seconds));
  return { documents: DOCS, pages: PAGES, scanned: SCANS, runs, best_one_process_s: best(1), best_owner_and_worker_s: best(2), ratio: round(best(2) / best(1), 2), pass: runs.every((r) => r.failed === 0) };
}
