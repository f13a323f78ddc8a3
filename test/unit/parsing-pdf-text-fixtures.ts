import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pdf } from './parsing-pdf-fixtures.ts';

/** PDFs for the text-repair and heading tests: a contents page, a size ladder, repairs. */

const body = (topic: string) => `This part is about ${topic} and what a volunteer does with it on an ordinary morning in the garden, before the visitors come.`;

export const CHAPTERS = ['Soil and Compost', 'Seeds and Seedlings', 'Watering', 'Pests'];

/**
 * A title page, a contents page whose title is set larger than any chapter heading, then each
 * chapter on a page of its own followed by a page without a heading.
 */
export const contentsPdf = () =>
  pdf((doc) => {
    doc.font('Helvetica').fontSize(11).text('A short guide to the garden, written for new volunteers who join in spring.', 72, 120, { width: 460 });
    doc.addPage();
    doc.font('Helvetica-Bold').fontSize(24).text('Contents', 72, 72);
    CHAPTERS.forEach((c, i) => doc.font('Helvetica-Bold').fontSize(12).text(`${i + 1}  ${c} ${'.'.repeat(50)} ${3 + i * 2}`, 72, 120 + i * 20, { lineBreak: false }));
    CHAPTERS.forEach((c, i) => {
      doc.addPage();
      doc.font('Helvetica-Bold').fontSize(18).text(`${i + 1} ${c}`, 72, 72);
      doc.font('Helvetica').fontSize(11).text(body(c.toLowerCase()), 72, 110, { width: 460 });
      doc.addPage();
      doc.font('Helvetica').fontSize(11).text(`More: ${body(c.toLowerCase())}`, 72, 72, { width: 460 });
    });
  });

/** Headings in three sizes above 10 pt body text: 20, 16 and 13 pt. */
export const ladderPdf = () =>
  pdf((doc) => {
    let y = 60;
    const put = (text: string, size: number, font = 'Helvetica-Bold') => {
      doc.font(font).fontSize(size).text(text, 72, y, { width: 460 });
      y = doc.y + 10;
    };
    put('Garden Handbook', 20);
    put(body('the handbook'), 10, 'Helvetica');
    for (const part of ['Beds', 'Paths']) {
      put(`The ${part}`, 16);
      put(body(part.toLowerCase()), 10, 'Helvetica');
      for (const sub of ['Spring', 'Autumn']) {
        put(`${part} in ${sub}`, 13);
        put(body(`${part.toLowerCase()} in ${sub.toLowerCase()}`), 10, 'Helvetica');
      }
    }
  });

const fontPath = join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts', 'LiberationSans-Regular.ttf');

/**
 * Lines set one by one (so the breaks are ours): a hyphenated word, a compound broken at its
 * hyphen, ligature code points. (pdfkit draws a soft hyphen as the hyphen glyph and maps it back
 * to "-", so soft hyphens are tested on text, in parsing-text-repair.)
 */
export const repairPdf = () =>
  pdf((doc) => {
    doc.font(fontPath).fontSize(11);
    const lines = ['The garden is run in the most effi-', 'cient way we know, by a self-', 'aware team that waters the ﬁelds and', 'the ﬂower beds with a hydroponic pump.'];
    lines.forEach((line, i) => doc.text(line, 72, 100 + i * 14, { lineBreak: false }));
  });

export const RUNNING = 'Garden Society Newsletter';

/**
 * A bold running header on every page, set below the margin band the header filter looks at,
 * over a chapter heading and its text.
 */
export const runningHeaderPdf = () =>
  pdf((doc) => {
    CHAPTERS.forEach((c, i) => {
      if (i) doc.addPage();
      doc.font('Helvetica-Bold').fontSize(14).text(RUNNING, 72, 90, { lineBreak: false });
      doc.font('Helvetica-Bold').fontSize(18).text(c, 72, 140);
      doc.font('Helvetica').fontSize(11).text(body(c.toLowerCase()), 72, 180, { width: 460 });
    });
  });
