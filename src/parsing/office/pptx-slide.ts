import type { BlockBuilder } from '../block-builder.ts';
import { tableRowTexts } from './docx-tables.ts';
import { attribute, childNamed, childrenNamed, descendantsNamed, localName, type XmlNode } from './xml-tree.ts';

/** Placeholders whose text is slide furniture repeated on every slide, not content. */
const FURNITURE = new Set(['dt', 'ftr', 'hdr', 'sldNum', 'sldImg']);
const TITLES = new Set(['title', 'ctrTitle']);

type Item = { node: XmlNode; title: boolean; at?: { x: number; y: number } };

/**
 * Writes one slide (or notes page) as blocks: titles as headings, then the other shapes in
 * reading order, each paragraph a block, tables row by row. Shapes are stored in z-order, which
 * is the order they were drawn, not read; when every shape says where it sits, top-to-bottom then
 * left-to-right is the better guess. Placeholders that inherit their position from the layout say
 * nothing, and then the stored order is kept.
 */
export function slideBlocks(slide: XmlNode, builder: BlockBuilder, page: number, headingLevel: number): void {
  const tree = descendantsNamed(slide, 'spTree')[0];
  if (!tree) return;
  const items = shapesOf(tree);
  const titles = items.filter((i) => i.title);
  const rest = items.filter((i) => !i.title);
  if (rest.every((i) => i.at)) rest.sort((a, b) => a.at!.y - b.at!.y || a.at!.x - b.at!.x);
  for (const item of titles) builder.heading(paragraphs(item.node).join(' '), headingLevel, page);
  for (const item of rest) writeShape(item.node, builder, page);
}

/** Shapes and tables of a shape tree; a group's members are read in their own stored order. */
function shapesOf(tree: XmlNode): Item[] {
  const items: Item[] = [];
  for (const child of tree.children) {
    const name = localName(child);
    if (name === 'grpSp') {
      const members = shapesOf(child);
      const at = offset(child);
      items.push(...members.map((m) => ({ ...m, at })));
    } else if (name === 'sp' || name === 'graphicFrame') {
      const type = placeholderType(child);
      if (type && FURNITURE.has(type)) continue;
      items.push({ node: child, title: TITLES.has(type ?? ''), at: offset(child) });
    }
  }
  return items;
}

function placeholderType(shape: XmlNode): string | undefined {
  const ph = descendantsNamed(childNamed(shape, 'nvSpPr') ?? childNamed(shape, 'nvGraphicFramePr') ?? shape, 'ph')[0];
  // A placeholder without a type is a body placeholder (ECMA-376 19.3.1.36).
  return ph ? (ph.attributes.type ?? 'body') : undefined;
}

function offset(shape: XmlNode): Item['at'] {
  const xfrm = childNamed(childNamed(shape, 'spPr') ?? childNamed(shape, 'grpSpPr') ?? shape, 'xfrm') ?? childNamed(shape, 'xfrm');
  const off = xfrm && childNamed(xfrm, 'off');
  if (!off) return undefined;
  return { x: Number(off.attributes.x) || 0, y: Number(off.attributes.y) || 0 };
}

function writeShape(shape: XmlNode, builder: BlockBuilder, page: number) {
  const table = descendantsNamed(shape, 'tbl')[0];
  if (table) {
    for (const row of tableRowTexts(tableRows(table))) builder.add('table_row', row, page);
    return;
  }
  const body = childNamed(shape, 'txBody');
  if (!body) return;
  for (const p of childrenNamed(body, 'p')) {
    const level = Number(childNamed(p, 'pPr')?.attributes.lvl ?? 0);
    const text = paragraphText(p);
    if (level > 0) builder.add('list_item', text, page, level);
    else builder.add('paragraph', text, page);
  }
}

function tableRows(table: XmlNode) {
  return childrenNamed(table, 'tr').map((tr) => ({
    isHeader: false,
    cells: childrenNamed(tr, 'tc')
      // Cells covered by a merge repeat nothing of their own; the merged cell carries the spans.
      .filter((tc) => tc.attributes.hMerge !== '1' && tc.attributes.vMerge !== '1')
      .map((tc) => ({
        text: paragraphs(tc).join(' '),
        colSpan: Number(tc.attributes.gridSpan) || 1,
        rowSpan: Number(tc.attributes.rowSpan) || 1,
        bold: descendantsNamed(tc, 'rPr').some((r) => attribute(r, 'b') === '1'),
      })),
  }));
}

const paragraphs = (node: XmlNode) => descendantsNamed(node, 'p').map(paragraphText).filter((t) => t.trim());

/** Runs, fields and line breaks of one DrawingML paragraph, in order. */
function paragraphText(p: XmlNode): string {
  let text = '';
  for (const child of p.children) {
    const name = localName(child);
    if (name === 'br') text += '\n';
    else if (name === 'r' || name === 'fld') text += childNamed(child, 't')?.text ?? '';
  }
  return text;
}
