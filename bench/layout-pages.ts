import PDFDocument from 'pdfkit';
import { seededRandom } from './util.ts';

/**
 * Pages with known text for the reading-order figures: a title across the page over one, two or
 * three columns of prose, a running header and footer on every page, and in the first column a
 * short list of dot-leader rows like a schedule in the CFR ("(32) Levomoramide ........ 9629").
 * The prose is made of seeded random words, so every run builds the same pages and every 5-word
 * run of a page is unique. The reference text is what a reader reads: title, then each column top
 * to bottom, leader rows whole; the running header and footer are not part of it.
 */

export type LayoutDoc = { pdf: Buffer; pages: string[] };
export type LayoutOptions = { columns: number; pages?: number; seed?: number; fontSize?: number };

const WORDS = (
  'river stone garden lantern harbour meadow winter copper signal orchard valley bridge market ' +
  'candle thunder silver forest window island ladder mirror pepper basket engine feather canyon ' +
  'planet marble velvet anchor cobalt saddle tunnel violet hammer falcon glacier quarry pillow ' +
  'summit walnut ribbon cactus meteor harvest compass blanket kettle lagoon beacon parcel timber ' +
  'walks keeps finds brings holds turns reads paints builds carries follows gathers opens measures ' +
  'quietly early slowly often nearly gently always softly the a of and with under over near beside'
).split(' ');

const DRUGS = ['Levomoramide', 'Levophenacylmorphan', 'Morpheridine', 'Noracymethadol', 'Norlevorphanol', 'Normethadone'];

const PAGE = { width: 612, height: 792, margin: 54, gap: 24, top: 112, bottom: 730 };

function sentenceMaker(seed: number) {
  const random = seededRandom(seed);
  const pick = () => WORDS[Math.floor(random() * WORDS.length)]!;
  return () => {
    const words = Array.from({ length: 7 + Math.floor(random() * 8) }, pick);
    words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
    return `${words.join(' ')}.`;
  };
}

/** One dot-leader row set to the column's width: name, leader dots, number at the right edge. */
function leaderRow(doc: PDFKit.PDFDocument, index: number, width: number): { text: string; plain: string } {
  const name = `(${32 + index}) ${DRUGS[index % DRUGS.length]}`;
  const code = String(9629 + index * 3);
  let dots = '';
  while (doc.widthOfString(`${name} ${dots}.. ${code}`) < width) dots += '.';
  return { text: `${name} ${dots} ${code}`, plain: `${name} ${code}` };
}

/** Prose from y down to the bottom of the column, sentence by sentence while it fits. */
function fillProse(doc: PDFKit.PDFDocument, next: () => string, width: number, height: number): string {
  let text = next();
  for (;;) {
    const longer = `${text} ${next()}`;
    if (doc.heightOfString(longer, { width, align: 'justify' }) > height) return text;
    text = longer;
  }
}

export function layoutPdf({ columns, pages = 3, seed = 1, fontSize = 9 }: LayoutOptions): Promise<LayoutDoc> {
  const doc = new PDFDocument({ size: 'LETTER', margin: PAGE.margin, autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  const next = sentenceMaker(seed);
  const inner = PAGE.width - 2 * PAGE.margin;
  const width = (inner - PAGE.gap * (columns - 1)) / columns;
  const references: string[] = [];
  for (let p = 1; p <= pages; p++) {
    doc.addPage({ size: 'LETTER', margin: PAGE.margin });
    doc.font('Helvetica').fontSize(8);
    doc.text('The Layout Gazette: reading order trials', PAGE.margin, 34, { lineBreak: false });
    doc.text(`Page ${p} of ${pages}`, PAGE.margin, 752, { lineBreak: false });
    const title = `Part ${p}: ${next().replace(/\.$/, '')}`;
    doc.font('Helvetica-Bold').fontSize(16).text(title, PAGE.margin, 66, { width: inner, align: 'center' });
    const parts = [title];
    for (let c = 0; c < columns; c++) {
      const x = PAGE.margin + c * (width + PAGE.gap);
      let y = PAGE.top;
      doc.font('Helvetica').fontSize(fontSize);
      const lead = fillProse(doc, next, width, 120);
      doc.text(lead, x, y, { width, align: 'justify' });
      y = doc.y + fontSize;
      parts.push(lead);
      if (c === 0) {
        for (let r = 0; r < 3; r++) {
          const row = leaderRow(doc, r + 3 * (p - 1), width);
          doc.text(row.text, x, y, { lineBreak: false });
          y += fontSize * 1.5;
          parts.push(row.plain);
        }
        y += fontSize;
      }
      const rest = fillProse(doc, next, width, PAGE.bottom - y);
      doc.text(rest, x, y, { width, align: 'justify' });
      parts.push(rest);
    }
    references.push(parts.join('\n'));
  }
  doc.end();
  return done.then((pdf) => ({ pdf, pages: references }));
}
