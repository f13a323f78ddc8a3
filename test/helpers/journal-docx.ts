import { seededRandom } from '../../bench/util.ts';
import { zip, type ZipEntry } from '../unit/parsing-fixtures.ts';

/**
 * A long journal as Word writes one (issue 36): essays that each open with a one-column title
 * section (a next-page section break, whose w:type Word leaves out as the default) and continue
 * in two columns after a continuous section break, with a one-column box in the middle; footnotes
 * throughout; and Word's rendered page breaks only in the first essays, as when a document was
 * assembled from pieces or edited after Word last laid it out.
 *
 * The generator lays the pages out itself, by a fixed capacity per page (body text plus the
 * footnotes at its foot), and returns the page of every paragraph it wrote: the rendered breaks
 * of the first essays are put where that layout broke pages, so they agree with the truth.
 */
export type JournalParagraph = { text: string; page: number; laidOut: boolean; title: boolean };
export type Journal = { docx: Buffer; paragraphs: JournalParagraph[]; pages: number };
export type JournalOptions = { essays?: number; renderedEssays?: number; seed?: number };

/** Characters a page holds (two columns of 11 pt on A4), footnotes included. */
const PAGE_CHARS = 3600;
/** Two lines of a column: less room than this at the foot of a page moves a paragraph to the next. */
const MIN_SPLIT_CHARS = 90;
const RENDERED = '<w:lastRenderedPageBreak/>';
const text = (value: string) => `<w:t xml:space="preserve">${value}</w:t>`;
const WORDS = 'die Zeitschrift Forschung Gesellschaft über Geschichte Sprache Wirtschaft Bildung Stadt Landschaft Erinnerung Öffentlichkeit Verfassung Jahrhundert zwischen während Begriff Überlieferung Quelle Wandel Kultur Arbeit Verhältnis Bedeutung Entwicklung Frage Antwort jedoch zugleich'.split(' ');

type Block = { text: string; title?: boolean; style?: string; sectPr?: string; footnote?: string };

export function buildJournal({ essays = 14, renderedEssays = 4, seed = 36 }: JournalOptions = {}): Journal {
  const random = seededRandom(seed);
  const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
  const paragraphs: JournalParagraph[] = [];
  const xml: string[] = [];
  const footnotes: string[] = [];
  let page = 0;
  let used = PAGE_CHARS; // the first essay starts page 1

  // Word splits a paragraph that reaches the foot of a page (the first part stays when at least
  // two lines fit) and writes the rendered break inside it; a footnote goes to the page its
  // reference, at the paragraph's end, fell on.
  const place = (block: Block, essay: number, newPage: boolean) => {
    const laidOut = essay < renderedEssays;
    const runs: string[] = [];
    if (newPage || PAGE_CHARS - used < MIN_SPLIT_CHARS) {
      page++;
      used = 0;
      if (laidOut && page > 1) runs.push(RENDERED);
    }
    const first = page;
    let rest = block.text;
    while (used + rest.length > PAGE_CHARS) {
      const cut = rest.lastIndexOf(' ', PAGE_CHARS - used);
      runs.push(text(rest.slice(0, cut)));
      rest = rest.slice(cut);
      page++;
      used = 0;
      if (laidOut) runs.push(RENDERED);
    }
    runs.push(text(rest));
    used += rest.length + (block.footnote?.length ?? 0);
    paragraphs.push({ text: block.text, page: first, laidOut, title: Boolean(block.title) });
    let noteRun = '';
    if (block.footnote) {
      const id = footnotes.length + 1;
      footnotes.push(`<w:footnote w:id="${id}"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> ${block.footnote}</w:t></w:r></w:p></w:footnote>`);
      noteRun = `<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="${id}"/></w:r>`;
    }
    const props = `${block.style ? `<w:pStyle w:val="${block.style}"/>` : ''}${block.sectPr ?? ''}`;
    xml.push(`<w:p>${props ? `<w:pPr>${props}</w:pPr>` : ''}<w:r>${runs.join('')}</w:r>${noteRun}</w:p>`);
  };

  for (let e = 0; e < essays; e++) {
    const label = (n: number) => `Beitrag ${e + 1}, Absatz ${n}:`;
    const body = 14 + Math.floor(random() * 14);
    const box = Math.floor(body / 2);
    // The title section starts a new page (w:type left out: nextPage); it ends at the abstract.
    place({ text: `Beitrag ${e + 1}: ${words(6)}`, title: true, style: 'Heading1' }, e, true);
    place({ text: `${label(0)} ${words(90)}`, sectPr: section(1) }, e, false);
    for (let n = 1; n <= body; n++) {
      const text = `${label(n)} ${words(40 + Math.floor(random() * 80))}.`;
      const footnote = random() < 0.4 ? `Anmerkung zu ${e + 1}.${n}: ${words(15 + Math.floor(random() * 25))}.` : undefined;
      // Two columns up to the box, the box in one, then two again to the essay's end (the last
      // essay's ends at the body's own sectPr): each is a continuous section. The next essay's title
      // section, a next-page one, breaks the page.
      const ends = n === box - 1 || (n === body && e < essays - 1);
      const sectPr = ends ? section(2, 'continuous') : n === box ? section(1, 'continuous') : undefined;
      place({ text, footnote, sectPr }, e, false);
    }
  }
  return { docx: journalPackage(xml.join(''), footnotes.join(''), section(2, 'continuous')), paragraphs, pages: page };
}

function section(columns: number, type?: 'continuous') {
  return `<w:sectPr>${type ? `<w:type w:val="${type}"/>` : ''}<w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1134" w:right="1134" w:bottom="1134" w:left="1134" w:header="567" w:footer="567" w:gutter="0"/><w:cols w:num="${columns}" w:space="567"/></w:sectPr>`;
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument.wordprocessingml';

function journalPackage(body: string, footnotes: string, finalSection: string): Buffer {
  const parts: ZipEntry[] = [
    {
      name: '[Content_Types].xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="${CT}.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="${CT}.styles+xml"/><Override PartName="/word/footnotes.xml" ContentType="${CT}.footnotes+xml"/></Types>`,
    },
    { name: '_rels/.rels', data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>` },
    {
      name: 'word/_rels/document.xml.rels',
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/styles" Target="styles.xml"/><Relationship Id="rId2" Type="${REL}/footnotes" Target="footnotes.xml"/></Relationships>`,
    },
    {
      name: 'word/styles.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><w:styles ${W}><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:rPr><w:sz w:val="22"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:sz w:val="32"/></w:rPr></w:style></w:styles>`,
    },
    {
      name: 'word/footnotes.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><w:footnotes ${W}><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>${footnotes}</w:footnotes>`,
    },
    { name: 'word/document.xml', data: `<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>${body}${finalSection}</w:body></w:document>` },
  ];
  return zip(parts);
}

