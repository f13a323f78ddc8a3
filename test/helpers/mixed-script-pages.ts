import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import type { GrayImage } from '../../src/parsing/ocr/gray-image.ts';

/**
 * Scans that mix scripts, made on the spot: English lines alternating with Korean, Chinese or
 * Russian ones, black on white at about 300 dpi (40 px letters). English and Russian are drawn
 * with Liberation Sans from pdfjs-dist; Hangul and Han need a CJK font, Noto Sans CJK from
 * Debian's fonts-noto-cjk (.ci/run installs it), and the pages needing it are unavailable
 * (with the reason) where it is absent.
 */

export const MIXED_SAMPLES = {
  kor: [
    'The annual report is published every spring.',
    '연례 보고서는 매년 봄에 발행됩니다',
    'Sales grew in all three regions last year.',
    '작년에는 세 지역 모두에서 매출이 증가했습니다',
    'Please send your questions to the office.',
    '질문이 있으시면 사무실로 보내 주십시오',
  ],
  chi_sim: [
    'The annual report is published every spring.',
    '年度报告每年春天发布一次',
    'Sales grew in all three regions last year.',
    '去年三个地区的销售额都有增长',
    'Please send your questions to the office.',
    '如有问题请发送到办公室',
  ],
  rus: [
    'The annual report is published every spring.',
    'Годовой отчёт публикуется каждую весну.',
    'Sales grew in all three regions last year.',
    'Продажи выросли во всех трёх регионах.',
    'Please send your questions to the office.',
    'Пожалуйста, присылайте вопросы в офис.',
  ],
} as const;
export type MixedSample = keyof typeof MIXED_SAMPLES;

/** The letters of each sample's other script, as a pattern. */
export const SCRIPT_LETTERS: Record<MixedSample, RegExp> = { kor: /\p{Script=Hangul}/gu, chi_sim: /\p{Script=Han}/gu, rus: /\p{Script=Cyrillic}/gu };

const CJK_FONT = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
const LATIN_FONT = join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts', 'LiberationSans-Regular.ttf');

/** Why a sample's page cannot be drawn here, or undefined when it can. */
export function mixedSampleUnavailable(sample: MixedSample): string | undefined {
  if (sample === 'rus') return undefined;
  return existsSync(CJK_FONT) ? undefined : `no CJK font at ${CJK_FONT} (apt-get install fonts-noto-cjk)`;
}

let registered = false;
const register = () => {
  if (registered) return;
  GlobalFonts.registerFromPath(LATIN_FONT, 'MixedLatin');
  if (existsSync(CJK_FONT)) GlobalFonts.registerFromPath(CJK_FONT, 'MixedCjk');
  registered = true;
};

const isLatin = (line: string) => !/[^\p{Script=Latin}\p{P}\p{N}\s]/u.test(line);

export function mixedPage(sample: MixedSample, { width = 1500, px = 40, leading = 1.8 } = {}): GrayImage {
  register();
  const lines = MIXED_SAMPLES[sample];
  const height = 240 + Math.ceil(lines.length * px * leading);
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#000000';
  lines.forEach((line, i) => {
    ctx.font = `${px}px ${isLatin(line) || sample === 'rus' ? 'MixedLatin' : 'MixedCjk'}`;
    ctx.fillText(line, 80, 120 + i * px * leading);
  });
  const rgba = ctx.getImageData(0, 0, width, height).data;
  const data = new Uint8Array(width * height);
  for (let i = 0; i < data.length; i++) data[i] = rgba[i * 4]!;
  return { width, height, data };
}

/** The English lines and the other script's lines of a sample, each joined. */
export function mixedTruth(sample: MixedSample): { english: string; other: string } {
  const lines = MIXED_SAMPLES[sample];
  return { english: lines.filter((_, i) => i % 2 === 0).join(' '), other: lines.filter((_, i) => i % 2 === 1).join(' ') };
}

/**
 * The share of the expected letters of a script read, in order: the longest common subsequence
 * of the script's letters expected and read, over those expected. Noise in other scripts costs
 * nothing here; the English lines are scored apart (word accuracy).
 */
export function scriptRecall(expected: string, read: string, letters: RegExp): { expected: number; read: number; recall: number } {
  const a = expected.match(letters) ?? [];
  const b = read.match(letters) ?? [];
  let previous = new Array<number>(b.length + 1).fill(0);
  for (const ca of a) {
    const row = [0];
    for (let j = 1; j <= b.length; j++) row[j] = ca === b[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, row[j - 1]!);
    previous = row;
  }
  return { expected: a.length, read: b.length, recall: a.length ? previous[b.length]! / a.length : 1 };
}

const words = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, ' ').split(/\s+/).filter(Boolean);

/** The share of the expected English words (with multiplicity) found among the words read. */
export function englishRecall(expected: string, read: string): number {
  const available = new Map<string, number>();
  for (const w of words(read)) available.set(w, (available.get(w) ?? 0) + 1);
  const wanted = words(expected);
  let found = 0;
  for (const w of wanted) {
    const n = available.get(w) ?? 0;
    if (n > 0) (found++, available.set(w, n - 1));
  }
  return wanted.length ? found / wanted.length : 1;
}
