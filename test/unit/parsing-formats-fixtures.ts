/**
 * PPTX, EPUB and EML fixtures written by hand, so each test shows the exact markup it feeds the
 * parser: only the parts the parsers read.
 */
import { type ZipEntry, zip } from './parsing-fixtures.ts';

const NS = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

export const para = (text: string, lvl = 0) => `<a:p>${lvl ? `<a:pPr lvl="${lvl}"/>` : ''}<a:r><a:t>${text}</a:t></a:r></a:p>`;

/** A shape: a placeholder of `type` (title, body, sldNum …) or a free text box, optionally at a position. */
export function shape(paragraphs: string[], { type, at }: { type?: string; at?: [number, number] } = {}): string {
  const ph = type ? `<p:nvPr><p:ph type="${type}"/></p:nvPr>` : '<p:nvPr/>';
  const xfrm = at ? `<a:xfrm><a:off x="${at[0]}" y="${at[1]}"/><a:ext cx="100" cy="100"/></a:xfrm>` : '';
  return `<p:sp><p:nvSpPr><p:cNvPr id="2" name="s"/><p:cNvSpPr/>${ph}</p:nvSpPr><p:spPr>${xfrm}</p:spPr><p:txBody><a:bodyPr/>${paragraphs.join('')}</p:txBody></p:sp>`;
}

export function table(rows: string[][], at?: [number, number]): string {
  const cell = (text: string) => `<a:tc><a:txBody><a:bodyPr/>${para(text)}</a:txBody></a:tc>`;
  const xfrm = at ? `<p:xfrm><a:off x="${at[0]}" y="${at[1]}"/><a:ext cx="100" cy="100"/></p:xfrm>` : '';
  return `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="9" name="t"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>${xfrm}<a:graphic><a:graphicData><a:tbl>${rows
    .map((r) => `<a:tr h="1">${r.map(cell).join('')}</a:tr>`)
    .join('')}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
}

export const slide = (shapes: string[], attributes = '') => `<?xml version="1.0" encoding="UTF-8"?><p:sld ${NS}${attributes}><p:cSld><p:spTree>${shapes.join('')}</p:spTree></p:cSld></p:sld>`;

export type SlideInput = { xml: string; notes?: string };

/**
 * A presentation whose slide parts are named in reverse of their order in p:sldIdLst, so a test
 * can tell presentation order from part-name order.
 */
export function pptx(slides: SlideInput[], extra: ZipEntry[] = []): Buffer {
  const n = slides.length;
  const part = (i: number) => `slide${n - i}.xml`;
  const entries: ZipEntry[] = [
    { name: '[Content_Types].xml', data: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>' },
    {
      name: 'ppt/presentation.xml',
      data: `<?xml version="1.0"?><p:presentation ${NS}><p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join('')}</p:sldIdLst></p:presentation>`,
    },
    {
      name: 'ppt/_rels/presentation.xml.rels',
      data: `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${slides
        .map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/slide" Target="slides/${part(i)}"/>`)
        .join('')}</Relationships>`,
    },
  ];
  slides.forEach((s, i) => {
    entries.push({ name: `ppt/slides/${part(i)}`, data: s.xml });
    if (s.notes === undefined) return;
    entries.push(
      { name: `ppt/notesSlides/notes${i}.xml`, data: `<?xml version="1.0"?><p:notes ${NS}><p:cSld><p:spTree>${s.notes}</p:spTree></p:cSld></p:notes>` },
      {
        name: `ppt/slides/_rels/${part(i)}.rels`,
        data: `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/notesSlide" Target="../notesSlides/notes${i}.xml"/></Relationships>`,
      },
    );
  });
  return zip([...entries, ...extra]);
}

export type Chapter = { href: string; html: string };

/** An EPUB 3 package: the spine lists `spine` (hrefs) in that order; the manifest lists every chapter. */
export function epub(chapters: Chapter[], spine: string[], extra: ZipEntry[] = []): Buffer {
  const id = (href: string) => `c${chapters.findIndex((c) => c.href === href)}`;
  const opf = `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata/><manifest>${chapters
    .map((c) => `<item id="${id(c.href)}" href="${c.href}" media-type="application/xhtml+xml"/>`)
    .join('')}</manifest><spine>${spine.map((href) => `<itemref idref="${id(href)}"/>`).join('')}</spine></package>`;
  return zip([
    { name: 'mimetype', data: 'application/epub+zip', store: true },
    {
      name: 'META-INF/container.xml',
      data: '<?xml version="1.0"?><container xmlns="urn:oasis:names:tc:opendocument:xmlns:container" version="1.0"><rootfiles><rootfile full-path="OEBPS/book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    },
    { name: 'OEBPS/book.opf', data: opf },
    ...chapters.map((c) => ({ name: `OEBPS/${c.href}`, data: c.html })),
    ...extra,
  ]);
}

export const xhtml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title></head><body>${body}</body></html>`;

/** A MIME message with CRLF line ends, as mail is stored. */
export const eml = (lines: string[]) => Buffer.from(lines.join('\r\n'), 'latin1');
