import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pdf, textImage } from '../test/unit/parsing-pdf-fixtures.ts';
import { type Api, json, uploadFile, withKbqa } from './kbqa-api.ts';
import { groupRssMb } from './server-process.ts';
import { log, round, withTempDir } from './util.ts';

const PAGES = 21;
const SMALL_FILES = 6;

/** A scan made in code: `pages` pages that are only images of text (no text layer), so each is OCR'd. */
export function scannedPdf(pages: number): Promise<Buffer> {
  const images = Array.from({ length: pages }, (_, n) => textImage(pageLines(n + 1), { px: 36 }).png);
  return pdf((doc) =>
    images.forEach((png, i) => {
      if (i > 0) doc.addPage();
      doc.image(png, 0, 0, { width: 612, height: 792 });
    }),
  );
}

const WORDS = ['river', 'harbour', 'ledger', 'quarterly', 'shipment', 'inspection', 'warehouse', 'invoice', 'balance', 'customs', 'freight', 'audit'];

/** A page of a typed report: a heading and twenty lines of words, different on every page. */
function pageLines(page: number): string[] {
  const line = (i: number) => Array.from({ length: 6 }, (_, w) => WORDS[(page * 7 + i * 5 + w * 3) % WORDS.length]).join(' ');
  return [`Report page ${page}`, ...Array.from({ length: 20 }, (_, i) => `${i + 1}. The ${line(i)} entry.`)];
}

type Status = { status: string; readyAt: number | null };

/** Polls every document until each is ready or failed, noting when each settled (ms after `t0`); `sample` at every poll. */
async function watch(api: Api, kb: string, ids: string[], t0: number, sample = () => {}): Promise<Map<string, Status>> {
  const seen = new Map<string, Status>(ids.map((id) => [id, { status: 'queued', readyAt: null }]));
  while ([...seen.values()].some((s) => s.readyAt === null)) {
    const page = await json(api, 'GET', `/v1/knowledge-bases/${kb}/documents?limit=100`);
    const at = performance.now() - t0;
    for (const doc of page.data as { id: string; status: string }[]) {
      const entry = seen.get(doc.id);
      if (!entry || entry.readyAt !== null) continue;
      entry.status = doc.status;
      if (doc.status === 'ready' || doc.status === 'failed') entry.readyAt = at;
    }
    sample();
    await new Promise((r) => setTimeout(r, 50));
  }
  return seen;
}

/**
 * The complaint of issue 33: small files sat `queued` behind a long OCR job. A scanned PDF of 21
 * pages is uploaded, then at once 6 small text files; the figure is each small file's time from
 * its upload to ready, against the scan's. A first one-page scan warms the OCR engine, as a
 * server that has read a scan before would have it.
 */
export async function parseFairnessBench() {
  return withTempDir('fairness-files', async (dir) => {
    const warm = join(dir, 'warm-up.pdf');
    writeFileSync(warm, await scannedPdf(1));
    const long = join(dir, `scan-${PAGES}-pages.pdf`);
    writeFileSync(long, await scannedPdf(PAGES));
    return withKbqa('fairness', async (api, pid) => {
      const kb = (await json(api, 'POST', '/v1/knowledge-bases', { name: 'fairness' })).id as string;
      const warmId = await uploadFile(api, kb, warm);
      await watch(api, kb, [warmId], performance.now());
      const t0 = performance.now();
      const longId = await uploadFile(api, kb, long);
      const smallIds: string[] = [];
      const uploadedAt = new Map<string, number>();
      for (let i = 0; i < SMALL_FILES; i++) {
        const text = `# Note ${i}\n\nA short note number ${i} about the river and the ${i + 3} boats moored there.\n`;
        const body = await json(api, 'POST', `/v1/knowledge-bases/${kb}/documents`, { name: `note-${i}.md`, text });
        smallIds.push(body.data[0].id);
        uploadedAt.set(body.data[0].id, performance.now() - t0);
      }
      log(`parse_fairness: ${PAGES}-page scan and ${SMALL_FILES} notes uploaded`);
      // The parser processes (one per lane now) are the server's children: the whole group is sampled.
      let groupPeakMb = 0;
      const settled = await watch(api, kb, [longId, ...smallIds], t0, () => (groupPeakMb = Math.max(groupPeakMb, groupRssMb(pid))));
      const longReady = settled.get(longId)!.readyAt!;
      const small = smallIds.map((id) => (settled.get(id)!.readyAt! - uploadedAt.get(id)!) / 1000).sort((a, b) => a - b);
      const beforeLong = smallIds.filter((id) => settled.get(id)!.readyAt! < longReady).length;
      const scan = await json(api, 'GET', `/v1/knowledge-bases/${kb}/documents/${longId}`);
      const failed = [...settled].filter(([, s]) => s.status !== 'ready').map(([id]) => id);
      return {
        scan_pages: PAGES,
        scan_ocr_pages: scan.ocr_pages.length,
        scan_upload_to_ready_s: round(longReady / 1000, 2),
        small_files: SMALL_FILES,
        small_upload_to_ready_s: { p50: round(small[Math.floor(small.length / 2)]!, 2), max: round(small.at(-1)!, 2), each: small.map((s) => round(s, 2)) },
        small_ready_before_scan: beforeLong,
        failed,
        peak_group_rss_mb_sampled: groupPeakMb,
        target_small_max_s: 3,
        pass: failed.length === 0 && small.at(-1)! <= 3,
      };
    });
  });
}
