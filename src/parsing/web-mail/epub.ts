import { Parser as HtmlParser } from 'htmlparser2';
import { createBlockBuilder } from '../block-builder.ts';
import { decodeText } from '../language/decode.ts';
import { htmlBlockHandler } from './html-blocks.ts';
import { descendantsNamed, parseXml, resolvePart, type XmlNode } from '../office/xml-tree.ts';
import { type Archive, openArchive } from '../office/zip-archive.ts';
import { assertArchiveSafe, checkedPart } from '../office/zip-safety.ts';
import { MEDIA_TYPES, ParseFailure, type Parser } from '../types.ts';

const CONTAINER = 'META-INF/container.xml';
const CONTENT_TYPES = new Set(['application/xhtml+xml', 'text/html']);
/** An internal DTD subset declares entities; a plain XHTML doctype line does not and is harmless. */
const ENTITY_DECLARATION = /<!ENTITY/i;

/**
 * E-books: the package document's spine gives the reading order; each spine item is XHTML read
 * by the HTML parser (headings, lists, tables as for a web page). EPUB has no fixed pages, so a
 * page is a spine item (usually a chapter or a file of one): page = its position in the spine.
 */
export const parseEpub: Parser = async ({ path, limits, onProgress }) => {
  const archive = await openArchive(path);
  try {
    assertArchiveSafe(archive.entries, limits);
    const container = await xml(archive, CONTAINER);
    const opfPath = container && descendantsNamed(container, 'rootfile')[0]?.attributes['full-path'];
    const opf = opfPath ? await xml(archive, opfPath) : undefined;
    if (!opfPath || !opf) throw new ParseFailure('corrupt', 'The e-book has no package document (META-INF/container.xml or its .opf is missing).');

    const items = spineItems(opf, opfPath.includes('/') ? opfPath.slice(0, opfPath.lastIndexOf('/')) : '');
    if (items.length === 0) throw new ParseFailure('empty', 'The e-book has no readable chapters in its spine.');
    if (items.length > limits.maxPages) throw new ParseFailure('too_large', `The e-book has ${items.length} spine items; the limit is ${limits.maxPages}.`);

    const builder = createBlockBuilder();
    const warnings: string[] = [];
    for (const [index, part] of items.entries()) {
      const page = index + 1;
      if (!archive.has(part)) {
        warnings.push(`Spine item ${part} is missing from the archive and was skipped.`);
        continue;
      }
      const bytes = await archive.read(part);
      if (ENTITY_DECLARATION.test(bytes.toString('latin1'))) throw new ParseFailure('unsafe_content', `The part ${part} declares entities (possible XML bomb).`);
      const { text } = decodeText(bytes);
      builder.resetHeadings();
      // XHTML closes empty elements itself (<a id="x"/>); read as HTML they would swallow what follows.
      const options = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true };
      new HtmlParser(htmlBlockHandler(builder, page), options).end(text);
      onProgress?.(page, items.length);
    }
    return builder.finish({ mediaType: MEDIA_TYPES.epub, pageCount: items.length, warnings, limits });
  } finally {
    archive.close();
  }
};

async function xml(archive: Archive, name: string): Promise<XmlNode | undefined> {
  const bytes = await checkedPart(archive, name);
  return bytes && parseXml(decodeText(bytes).text);
}

/** Spine itemrefs resolved through the manifest to part names; non-linear items (pop-ups, notes) come last, as readers show them. */
function spineItems(opf: XmlNode, baseDir: string): string[] {
  const manifest = new Map<string, { href: string; type: string }>();
  for (const item of descendantsNamed(opf, 'item')) {
    const { id, href } = item.attributes;
    if (id && href) manifest.set(id, { href, type: item.attributes['media-type'] ?? '' });
  }
  const spine = descendantsNamed(opf, 'spine')[0];
  const refs = spine ? spine.children.filter((c) => c.name.endsWith('itemref')) : [];
  const ordered = [...refs.filter((r) => r.attributes.linear !== 'no'), ...refs.filter((r) => r.attributes.linear === 'no')];
  return ordered
    .map((ref) => manifest.get(ref.attributes.idref ?? ''))
    .filter((item): item is { href: string; type: string } => Boolean(item && CONTENT_TYPES.has(item.type)))
    .map((item) => resolvePart(baseDir, item.href.split('#')[0]!));
}
