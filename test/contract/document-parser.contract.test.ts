import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import PDFDocument from 'pdfkit';
import { createWorkerParser } from '../../src/adapters/local/worker-parser.ts';
import { DEFAULT_LIMITS } from '../../src/parsing/types.ts';
import { tempDir } from '../helpers/temp.ts';

const dir = tempDir('kbqa-worker-parser-');
test.after.always(() => dir.remove());

const chunking = { max_tokens: 128, overlap_tokens: 16 };
const task = (path: string, fileName: string) => ({ documentId: 'doc_test', path, fileName, chunking, limits: DEFAULT_LIMITS });

async function pdfWithPages(pages: number): Promise<string> {
  const doc = new PDFDocument({ autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  for (let i = 1; i <= pages; i++) {
    doc.addPage();
    doc.fontSize(12).text(`Page ${i}. ${'Words on a generated page that the parser must read. '.repeat(30)}`);
  }
  doc.end();
  await done;
  const path = join(dir.path, `pages-${pages}.pdf`);
  writeFileSync(path, Buffer.concat(chunks));
  return path;
}

test('parses in a parser process: chunks with pages, and page progress flows back', async (t) => {
  const parser = createWorkerParser({ threads: 1, maxMemoryMb: 512 });
  try {
    const path = await pdfWithPages(3);
    const progress: number[] = [];
    const outcome = await parser.parse(task(path, 'three.pdf'), { timeoutMs: 60_000, onProgress: (done) => progress.push(done) });
    t.true(outcome.ok);
    if (!outcome.ok) return;
    t.is(outcome.pageCount, 3);
    t.deepEqual([...new Set(outcome.chunks.map((c) => c.page))], [1, 2, 3]);
    t.deepEqual(progress, [1, 2, 3]);
  } finally {
    await parser.close();
  }
});

test('a broken file is an outcome with its code, not an error', async (t) => {
  const parser = createWorkerParser({ threads: 1, maxMemoryMb: 512 });
  try {
    const path = join(dir.path, 'broken.pdf');
    writeFileSync(path, '%PDF-1.7\n1 0 obj << /Type /Catalog garbage');
    const outcome = await parser.parse(task(path, 'broken.pdf'), { timeoutMs: 60_000 });
    t.like(outcome, { ok: false, code: 'corrupt' });
  } finally {
    await parser.close();
  }
});

test('past its deadline the worker is terminated and the outcome is timeout; the pool goes on', async (t) => {
  const parser = createWorkerParser({ threads: 1, maxMemoryMb: 512 });
  try {
    const path = await pdfWithPages(60);
    const outcome = await parser.parse(task(path, 'slow.pdf'), { timeoutMs: 30 });
    t.like(outcome, { ok: false, code: 'timeout' });
    const text = join(dir.path, 'after.txt');
    writeFileSync(text, 'The pool still parses after a terminated worker.');
    t.like(await parser.parse(task(text, 'after.txt'), { timeoutMs: 60_000 }), { ok: true });
  } finally {
    await parser.close();
  }
});

test('a worker starved of heap fails its document (out of memory, or stopped at its deadline), not the process', async (t) => {
  // V8 either gives up at once (resource_limit) or collects garbage near the limit until the
  // deadline stops the worker (timeout): which one depends on timing, both must leave the process working.
  const parser = createWorkerParser({ threads: 1, maxMemoryMb: 8 });
  try {
    const path = await pdfWithPages(200);
    const outcome = await parser.parse(task(path, 'big.pdf'), { timeoutMs: 15_000 });
    t.false(outcome.ok);
    if (!outcome.ok) t.true(['resource_limit', 'timeout'].includes(outcome.code), outcome.code);
    const text = join(dir.path, 'small.txt');
    writeFileSync(text, 'Small enough for any heap.');
  } finally {
    await parser.close();
  }
  const roomy = createWorkerParser({ threads: 1, maxMemoryMb: 256 });
  try {
    t.like(await roomy.parse(task(join(dir.path, 'small.txt'), 'small.txt'), { timeoutMs: 60_000 }), { ok: true });
  } finally {
    await roomy.close();
  }
});

