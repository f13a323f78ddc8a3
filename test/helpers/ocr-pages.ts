import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import type { GrayImage } from '../../src/parsing/gray-image.ts';

/**
 * Scans made on the spot: a few lines of one language rendered black on white at about 300 dpi
 * (40 px letters, a 10-point font) with Liberation Sans from pdfjs-dist, which covers Latin and
 * Cyrillic. Each text leans on its language's own letters (ä ö ü ß, é è ç, ñ ¿, ã õ, ы э ё …),
 * which an English model cannot produce.
 */
export const OCR_SAMPLES = {
  deu: [
    'Die Größe der Straße überrascht müde Bürger täglich.',
    'Schöne Häuser säumen den Fluss, während Kinder spielen.',
    'Für die nächste Prüfung lernen wir fleißig bis spät.',
  ],
  fra: [
    'Le garçon a été très ému par la fenêtre brisée.',
    "Où est la bibliothèque? Près de l'église, derrière le théâtre.",
    'Noël approche et les élèves préparent une fête agréable.',
  ],
  spa: [
    'El niño pequeño comió una manzana en la montaña.',
    '¿Dónde está la estación? Allí, junto al puerto viejo.',
    'La canción más bonita del año habla de la ilusión.',
  ],
  por: [
    'A informação sobre a eleição não chegou à população.',
    'Nós visitámos as regiões do interior e a capital.',
    'O coração da cidade está cheio de órgãos públicos.',
  ],
  ukr: [
    'Київ є столицею України і великим містом.',
    'Ми читаємо книжки у бібліотеці щодня ввечері.',
    'Зелені дерева ростуть уздовж широкої річки.',
  ],
  rus: [
    'Москва является столицей России и большим городом.',
    'Мы читаем книги в библиотеке каждый вечер.',
    'Это объявление было съедено ёжиком вчера.',
  ],
} as const;
export type SampleLanguage = keyof typeof OCR_SAMPLES;

const fontPath = join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts', 'LiberationSans-Regular.ttf');
let fontRegistered = false;

export function samplePage(lines: readonly string[], { width = 1400, px = 40 } = {}): { image: GrayImage; png: Buffer } {
  if (!fontRegistered) fontRegistered = !!GlobalFonts.registerFromPath(fontPath, 'OcrSampleSans');
  const height = 200 + lines.length * px * 2;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#000000';
  ctx.font = `${px}px OcrSampleSans`;
  lines.forEach((line, i) => ctx.fillText(line, 80, 120 + i * px * 1.8));
  const rgba = ctx.getImageData(0, 0, width, height).data;
  const data = new Uint8Array(width * height);
  for (let i = 0; i < data.length; i++) data[i] = rgba[i * 4]!;
  return { image: { width, height, data }, png: canvas.toBuffer('image/png') };
}
