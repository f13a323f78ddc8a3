/**
 * Writes the sample documents in samples/ that the quick start (docs/getting-started.md) and `kbqa demo` load: a
 * fictional wind turbine, the Zephyr-9, in three formats (PDF manual, DOCX service notes, XLSX
 * price list). The outputs are committed, so a fresh clone has them; run this again only to change
 * them (`node --import tsx scripts/make-samples.ts`). Every fact in them is invented.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';

const out = (name: string) => fileURLToPath(new URL(`../samples/${name}`, import.meta.url));
// Fixed dates keep the documents' metadata the same from one run to the next.
const CREATED = new Date('2026-01-15T09:00:00Z');

const MANUAL: { heading: string; paragraphs: string[] }[][] = [
  [
    {
      heading: 'Zephyr-9 Owner\'s Manual',
      paragraphs: [
        'The Zephyr-9 is a three-bladed offshore wind turbine made by Northwind Dynamics. It is rated at 9.2 megawatts and is designed for sites with an average wind speed of 8 to 11 metres per second.',
        'This manual covers installation, operation and routine maintenance. Read the safety chapter before anyone climbs the tower.',
      ],
    },
    {
      heading: 'Safety',
      paragraphs: [
        'Never enter the nacelle while the rotor is turning. Engage the rotor lock and wait until the rotor has stopped completely.',
        'Climbing is allowed only in wind speeds below 15 metres per second and with two technicians on site.',
      ],
    },
  ],
  [
    {
      heading: 'Technical specifications',
      paragraphs: [
        'Each Zephyr-9 blade is 78 metres long and made of glass fibre with a carbon spar cap. The rotor diameter is 160 metres.',
        'The hub height is 110 metres. The turbine starts producing power at a cut-in wind speed of 3 metres per second and shuts down at a cut-out wind speed of 28 metres per second.',
        'The generator is a permanent-magnet direct-drive generator, so the Zephyr-9 has no gearbox.',
      ],
    },
    {
      heading: 'Warranty',
      paragraphs: ['The standard warranty lasts five years from commissioning and can be extended to fifteen years with a service contract.'],
    },
  ],
];

async function pdf() {
  const doc = new PDFDocument({ size: 'A4', margin: 60, info: { Title: 'Zephyr-9 Owner\'s Manual', Author: 'Northwind Dynamics', CreationDate: CREATED } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  MANUAL.forEach((page, i) => {
    if (i > 0) doc.addPage();
    for (const section of page) {
      doc.font('Helvetica-Bold').fontSize(18).text(section.heading).moveDown(0.5);
      for (const p of section.paragraphs) doc.font('Helvetica').fontSize(11).text(p).moveDown(0.5);
      doc.moveDown();
    }
  });
  doc.end();
  await done;
  writeFileSync(out('zephyr-9.pdf'), Buffer.concat(chunks));
}

async function docx() {
  const heading = (text: string) => new Paragraph({ text, heading: HeadingLevel.HEADING_1 });
  const body = (text: string) => new Paragraph({ text });
  const doc = new Document({
    creator: 'Northwind Dynamics',
    title: 'Zephyr-9 service notes',
    sections: [{
      children: [
        heading('Zephyr-9 service notes'),
        body('A Zephyr-9 needs a scheduled service every 12 months. A service takes two technicians about one working day.'),
        heading('Oil and grease'),
        body('The main bearing is greased every 6 months with Northwind grease NW-220. The yaw system needs 4 litres of NW-220 per year.'),
        heading('Blade inspection'),
        body('Inspect the leading edges of the blades by drone once a year. Erosion deeper than 2 millimetres must be repaired before the next winter.'),
      ],
    }],
  });
  writeFileSync(out('service-notes.docx'), await Packer.toBuffer(doc));
}

async function xlsx() {
  const book = new ExcelJS.Workbook();
  book.creator = 'Northwind Dynamics';
  book.created = CREATED;
  book.modified = CREATED;
  const sheet = book.addWorksheet('Prices 2026');
  sheet.addRow(['Item', 'Description', 'Price (EUR)']);
  sheet.addRows([
    ['Zephyr-9 turbine', 'Complete turbine with tower, delivered and installed', 11_400_000],
    ['Zephyr-9 blade', 'One spare 78-metre blade', 410_000],
    ['Service contract', 'Yearly scheduled service, per turbine', 96_000],
    ['Warranty extension', 'From five to fifteen years, per turbine', 380_000],
    ['Grease NW-220', 'Bearing grease, 20-litre drum', 640],
  ]);
  writeFileSync(out('prices.xlsx'), Buffer.from(await book.xlsx.writeBuffer()));
}

await Promise.all([pdf(), docx(), xlsx()]);
process.stdout.write('wrote samples/zephyr-9.pdf, samples/service-notes.docx, samples/prices.xlsx\n');
