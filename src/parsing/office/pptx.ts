import { createBlockBuilder } from '../block-builder.ts';
import { slideBlocks } from './pptx-slide.ts';
import { descendantsNamed, parseXml, relationships, type XmlNode } from './xml-tree.ts';
import { type Archive, openArchive } from './zip-archive.ts';
import { assertArchiveSafe, checkedPart } from './zip-safety.ts';
import { MEDIA_TYPES, ParseFailure, type Parser } from '../types.ts';

const PRESENTATION = 'ppt/presentation.xml';

/**
 * PowerPoint presentations: each slide is a page (page = slide number, hidden slides skipped
 * with a warning but still counted, so the numbers match what PowerPoint shows), its title a
 * heading, its shapes in reading order, its speaker notes under a "Notes" heading on the same page.
 */
export const parsePptx: Parser = async ({ path, limits, onProgress }) => {
  const archive = await openArchive(path);
  try {
    assertArchiveSafe(archive.entries, limits);
    const read = xmlReader(archive);
    const presentation = await read(PRESENTATION);
    if (!presentation) throw new ParseFailure('corrupt', 'The file is not a PowerPoint presentation (no ppt/presentation.xml).');
    const slides = await slideOrder(presentation, read);
    if (slides.length === 0) throw new ParseFailure('empty', 'The presentation has no slides.');
    if (slides.length > limits.maxPages) throw new ParseFailure('too_large', `The presentation has ${slides.length} slides; the limit is ${limits.maxPages}.`);

    const builder = createBlockBuilder();
    const warnings: string[] = [];
    for (const [index, part] of slides.entries()) {
      const page = index + 1;
      const slide = await read(part);
      if (!slide) throw new ParseFailure('corrupt', `The slide part ${part} is missing.`);
      if (descendantsNamed(slide, 'sld')[0]?.attributes.show === '0') {
        warnings.push(`Slide ${page} is hidden and was skipped.`);
        continue;
      }
      builder.resetHeadings();
      slideBlocks(slide, builder, page, 1);
      const notes = await notesOf(part, read);
      if (notes && hasText(notes)) {
        builder.heading('Notes', 2, page);
        slideBlocks(notes, builder, page, 3);
      }
      onProgress?.(page, slides.length);
    }
    return builder.finish({ mediaType: MEDIA_TYPES.pptx, pageCount: slides.length, warnings, limits });
  } finally {
    archive.close();
  }
};

type XmlReader = (name: string) => Promise<XmlNode | undefined>;

/** Parts are DTD-checked before parsing, as for DOCX: a DTD in OOXML is only ever an attack. */
function xmlReader(archive: Archive): XmlReader {
  return async (name) => {
    const bytes = await checkedPart(archive, name);
    return bytes && parseXml(new TextDecoder('utf-8').decode(bytes));
  };
}

const relsOf = (part: string) => {
  const slash = part.lastIndexOf('/');
  return { dir: part.slice(0, slash), rels: `${part.slice(0, slash)}/_rels/${part.slice(slash + 1)}.rels` };
};

async function relationMap(part: string, read: XmlReader) {
  const { dir, rels } = relsOf(part);
  const node = await read(rels);
  return node ? relationships(node, dir) : new Map<string, { type: string; target: string }>();
}

/** Slides in presentation order (p:sldIdLst), not in the order of their part names. */
async function slideOrder(presentation: XmlNode, read: XmlReader): Promise<string[]> {
  const rels = await relationMap(PRESENTATION, read);
  return descendantsNamed(presentation, 'sldId')
    // sldId carries both its own id and r:id, the relationship; only the prefixed one is wanted.
    .map((id) => rels.get(Object.entries(id.attributes).find(([key]) => key.endsWith(':id'))?.[1] ?? '')?.target)
    .filter((target): target is string => Boolean(target));
}

/** Notes pages always hold an empty body placeholder; a "Notes" heading over nothing would be noise. */
function hasText(notes: XmlNode): boolean {
  const scratch = createBlockBuilder();
  slideBlocks(notes, scratch, 1, 1);
  return scratch.count > 0;
}

async function notesOf(slidePart: string, read: XmlReader): Promise<XmlNode | undefined> {
  const rels = await relationMap(slidePart, read);
  const notes = [...rels.values()].find((r) => r.type.endsWith('/notesSlide'));
  return notes ? read(notes.target) : undefined;
}
