import type { Handler } from 'htmlparser2';
import type { BlockBuilder } from '../block-builder.ts';
import { looksLikeHeader, rowText } from '../table-text.ts';

/** Elements whose content is never reading matter: code, styling, site chrome. */
const NOISE = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'head', 'nav', 'aside', 'footer', 'iframe', 'object', 'embed', 'canvas', 'button', 'select', 'dialog']);
const NOISE_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'search', 'complementary', 'menu', 'menubar']);
const NOISE_NAMES = new Set(['nav', 'navbar', 'navigation', 'menu', 'breadcrumb', 'breadcrumbs', 'sidebar', 'toc', 'cookie-banner', 'skip-link']);
const BLOCKS = new Set(['p', 'div', 'section', 'article', 'main', 'header', 'ul', 'ol', 'menu', 'li', 'dl', 'dt', 'dd', 'pre', 'blockquote', 'figure', 'figcaption', 'caption', 'address', 'hr', 'details', 'summary', 'body', 'html', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot']);
const LISTS = new Set(['ul', 'ol', 'menu']);

type Open = { name: string; noise: boolean };
type Row = { cells: (string | undefined)[]; header: boolean };
type Table = { rows: Row[]; inHead: boolean; cell?: string[]; span: number };

/**
 * An htmlparser2 handler that writes blocks as elements close: headings, paragraphs, list items
 * with their nesting, pre as code, blockquotes as quotes, and tables row by row (a thead or a
 * row of th names the columns). Site chrome (nav, footer, aria roles …) is dropped.
 */
export function htmlBlockHandler(builder: BlockBuilder, page = 1): Partial<Handler> {
  const open: Open[] = [];
  const tables: Table[] = [];
  let text: string[] = [];
  let noise = 0;

  const cell = () => tables[tables.length - 1]?.cell;

  const flush = () => {
    const content = text.join('');
    text = [];
    if (!content.trim()) return;
    for (let i = open.length - 1; i >= 0; i--) {
      const name = open[i]!.name;
      if (/^h[1-6]$/.test(name)) return builder.heading(content, Number(name[1]), page);
      if (name === 'pre') return builder.add('code', content, page);
      if (name === 'li') return builder.add('list_item', content, page, Math.max(0, open.filter((o) => LISTS.has(o.name)).length - 1));
      if (name === 'blockquote') return builder.add('quote', content, page);
      if (name === 'figcaption' || name === 'caption') return builder.add('caption', content, page);
    }
    builder.add('paragraph', content, page);
  };

  const close = (name: string) => {
    const index = open.map((o) => o.name).lastIndexOf(name);
    if (index < 0) return;
    while (open.length > index + 1) close(open[open.length - 1]!.name);
    const closing = open.pop()!;
    if (closing.noise) return void noise--;
    const table = tables[tables.length - 1];
    if (name === 'table') closeTable();
    else if (table && name === 'thead') table.inHead = false;
    else if (table && (name === 'td' || name === 'th') && table.cell) {
      const row = table.rows[table.rows.length - 1]!;
      const content = table.cell.join('');
      // A header spanning columns names each of them; a body cell is said once.
      row.cells.push(content, ...Array<string | undefined>(table.span - 1).fill(row.header ? content : undefined));
      table.cell = undefined;
    } else if (BLOCKS.has(name) && !cell()) {
      open.push(closing);
      flush();
      open.pop();
    }
  };

  const closeTable = () => {
    const table = tables.pop();
    if (!table) return;
    const rows = tableTexts(table.rows);
    const outer = cell();
    if (outer) outer.push(` ${rows.join('; ')} `);
    else for (const row of rows) builder.add('table_row', row, page);
  };

  return {
    onopentag(name, attributes) {
      const isNoise = noise > 0 || NOISE.has(name) || isChrome(attributes);
      // Text before a block element belongs to the enclosing block: write it before opening.
      if (!isNoise && BLOCKS.has(name)) {
        if (cell()) cell()!.push(' ');
        else flush();
      }
      open.push({ name, noise: isNoise });
      if (isNoise) return void noise++;
      if (name === 'br') (cell() ?? text).push('\n');
      else if (name === 'table') tables.push({ rows: [], inHead: false, span: 1 });
      else openInTable(tables[tables.length - 1], name, attributes);
    },
    ontext(chunk) {
      if (noise === 0) (cell() ?? text).push(chunk);
    },
    onclosetag: (name) => close(name),
    onend: () => flush(),
  };
}

/** thead, tr, td and th open the head, a row or a cell of the innermost table; outside one, nothing. */
function openInTable(table: Table | undefined, name: string, attributes: Record<string, string>) {
  if (!table) return;
  if (name === 'thead') table.inHead = true;
  else if (name === 'tr') table.rows.push({ cells: [], header: table.inHead });
  else if (name === 'td' || name === 'th') openCell(table, name, attributes);
}

function openCell(table: Table, name: 'td' | 'th', attributes: Record<string, string>) {
  if (!table.rows.length) table.rows.push({ cells: [], header: table.inHead });
  table.cell = [];
  table.span = Math.min(100, Math.max(1, Number(attributes.colspan) || 1));
  const row = table.rows[table.rows.length - 1]!;
  // A td outside a thead makes its row a body row; a row whose first cell is a th or sits in a thead is a header row.
  if (name === 'td' && !table.inHead) row.header = false;
  else if (row.cells.length === 0) row.header = true;
}

/** A thead or leading rows of th name the columns; failing that, a label-like first row above numbers. */
function tableTexts(rows: Row[]): string[] {
  let headers = 0;
  while (headers < rows.length - 1 && rows[headers]!.header) headers++;
  if (headers === 0 && rows.length > 1) {
    const cells = (r: Row) => r.cells.map((c) => c ?? '');
    if (looksLikeHeader(cells(rows[0]!), rows.slice(1).map(cells), true)) headers = 1;
  }
  if (!headers) return rows.map((row) => rowText(row.cells)).filter(Boolean);
  const width = Math.max(...rows.map((r) => r.cells.length));
  const names = Array.from({ length: width }, (_, i) => [...new Set(rows.slice(0, headers).map((r) => r.cells[i]?.trim()).filter(Boolean))].join(' '));
  return [rowText(names.filter((name, i) => name !== names[i - 1])), ...rows.slice(headers).map((row) => rowText(row.cells, names))].filter(Boolean);
}

function isChrome(attributes: Record<string, string>): boolean {
  if ('hidden' in attributes || attributes['aria-hidden'] === 'true') return true;
  if (attributes.role && NOISE_ROLES.has(attributes.role)) return true;
  const names = `${attributes.id ?? ''} ${attributes.class ?? ''}`.toLowerCase().split(/\s+/);
  return names.some((n) => NOISE_NAMES.has(n));
}
