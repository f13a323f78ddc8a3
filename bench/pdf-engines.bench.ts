import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './server-process.ts';
import { log, round } from './util.ts';

/**
 * The PDF engines side by side (issue 17): pages/s and peak RSS of pdf.js, @embedpdf/pdfium and
 * @hyzyla/pdfium reading the text of the 400-page PDF on one thread, and of our pipeline split
 * into its stages; then how much of poppler's text (pdftotext, reading order) each one keeps
 * over every PDF in docs/pdf, as word 5-gram recall, and how many ligature characters it leaves.
 * Each run is a process of its own, so its peak RSS is its own.
 */

const DOCS = join(ROOT, '..', 'shared', 'data', 'docs', 'pdf');
const BIG = join(DOCS, 'irs-manual-transmittal-400p.pdf');
const MODES = ['pdfjs', 'embedpdf', 'hyzyla', 'pipeline'] as const;
const LICENCES = { pdfjs: 'Apache-2.0', embedpdf: 'MIT (PDFium: BSD-3-Clause/Apache-2.0)', hyzyla: 'MIT (PDFium: BSD-3-Clause/Apache-2.0)', pipeline: 'ours over pdf.js' };

type FileRun = { pages: number; seconds: number; boxes?: number; stages?: Record<string, number>; text: string };
type Run = { files: FileRun[]; max_rss_mb: number };

/** One engine (or our pipeline) over the files, in a process of its own: pdf.js loaded as parser processes load it. */
export function runEngineChild(mode: string, paths: string[]): Run {
  const out = execFileSync(process.execPath, [join(ROOT, 'bench', 'pdf-engine-child.mjs'), mode, ...paths], { cwd: ROOT, maxBuffer: 1 << 28, encoding: 'utf8' });
  return JSON.parse(out) as Run;
}

/** Letters and digits, case folded: what both texts agree a word is, whatever their spacing and line ends. */
const words = (text: string) => text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

function grams(tokens: string[], n = 5): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = tokens.slice(i, i + n).join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Share of the reference's 5-grams (with multiplicity) found in the candidate: order and completeness together. */
export function gramRecall(reference: string, candidate: string): number {
  const want = grams(words(reference));
  const have = grams(words(candidate));
  let total = 0;
  let found = 0;
  for (const [gram, count] of want) {
    total += count;
    found += Math.min(count, have.get(gram) ?? 0);
  }
  return total ? found / total : 1;
}

const LIGATURES = /[\ufb00-\ufb06]/g;

function speed(repeats: number) {
  const result: Record<string, unknown> = {};
  for (const mode of MODES) {
    const runs = Array.from({ length: repeats }, () => runEngineChild(mode, [BIG]));
    const best = runs.reduce((a, b) => (b.files[0]!.seconds < a.files[0]!.seconds ? b : a));
    const file = best.files[0]!;
    const stages = file.stages ? Object.fromEntries(Object.entries(file.stages).map(([k, v]) => [k, round(v)])) : undefined;
    result[mode] = { pages_per_s: round(file.pages / file.seconds), seconds: round(file.seconds, 2), peak_rss_mb: Math.max(...runs.map((r) => r.max_rss_mb)), boxes: file.boxes, stages, licence: LICENCES[mode] };
    log(`pdf_engines: ${mode} ${JSON.stringify(result[mode])}`);
  }
  return result;
}

function fidelity(files: string[]) {
  const reference = Object.fromEntries(files.map((f) => [f, execFileSync('pdftotext', ['-enc', 'UTF-8', join(DOCS, f), '-'], { encoding: 'utf8', maxBuffer: 1 << 26 })]));
  const result: Record<string, Record<string, { recall_5gram: number; ligatures: number }>> = {};
  for (const mode of MODES) {
    const read = runEngineChild(mode, files.map((f) => join(DOCS, f)));
    result[mode] = Object.fromEntries(
      files.map((f, i) => {
        const text = read.files[i]!.text;
        return [f, { recall_5gram: round(gramRecall(reference[f]!, text), 3), ligatures: text.match(LIGATURES)?.length ?? 0 }];
      }),
    );
  }
  return result;
}

function hasPdftotext() {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export async function pdfEnginesBench() {
  if (!existsSync(BIG)) return { skipped: 'needs ../shared/data/docs/pdf', pass: true };
  const repeats = Number(process.env.PDF_ENGINES_REPEATS ?? 1);
  const result: Record<string, unknown> = { file: 'irs-manual-transmittal-400p.pdf', repeats, speed: speed(repeats) };
  const files = readdirSync(DOCS).filter((f) => f.endsWith('.pdf')).sort();
  result.fidelity = hasPdftotext() ? fidelity(files) : { skipped: 'needs pdftotext (poppler-utils) as the reference' };
  return { ...result, pass: true };
}
