import type { GrayImage } from '../../src/parsing/ocr/gray-image.ts';
import { textImage } from '../unit/parsing-pdf-fixtures.ts';

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

export function samplePage(lines: readonly string[], { width = 1400, px = 40 } = {}): { image: GrayImage; png: Buffer } {
  const page = textImage(lines, { width, height: 200 + lines.length * px * 2, px, left: 80, top: 120, leading: 1.8 });
  return { image: { width: page.width, height: page.height, data: page.gray }, png: page.png };
}
