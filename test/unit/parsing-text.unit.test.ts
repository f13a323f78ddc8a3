import test from 'ava';
import iconv from 'iconv-lite';
import { sniffDelimiter } from '../../src/parsing/office/csv.ts';
import { decodeText } from '../../src/parsing/language/decode.ts';
import { sharedDoc, withSharedData } from '../helpers/shared-data.ts';
import { tempDir } from '../helpers/temp.ts';
import { blockWith, pageOf, parsePath, write } from './parsing-fixtures.ts';

const dir = tempDir('kbqa-parsing-text-');
test.after.always(() => dir.remove());

const FRENCH =
  'Le café de la gare ouvre à sept heures. Les élèves y prennent un thé glacé avant les cours; ' +
  'le garçon reçoit un pourboire de 5 € et remercie poliment. Ça coûte cher, mais c’est très agréable.';

test('text: windows-1252 is recognised and decoded, blank lines split paragraphs, form feeds split pages', async (t) => {
  const body = `${FRENCH}\n\nDeuxième paragraphe à la même page.\n\f Troisième sur la page deux.\r\n\r\nQuatrième, encore page deux.\f`;
  const doc = await parsePath(write(dir.path, 'notes-1252.txt', iconv.encode(body, 'windows-1252')));
  t.is(doc.mediaType, 'text/plain');
  t.is(doc.pageCount, 2, 'a trailing form feed does not add an empty page');
  t.is(doc.blocks[0]!.text, FRENCH);
  t.deepEqual(
    doc.blocks.map((b) => [b.page, b.text.slice(0, 12)]),
    [
      [1, FRENCH.slice(0, 12)],
      [1, 'Deuxième par'],
      [2, 'Troisième su'],
      [2, 'Quatrième, e'],
    ],
  );
});

test('text: UTF-16 little and big endian with BOM', async (t) => {
  for (const [encoding, bom] of [
    ['utf-16le', [0xff, 0xfe]],
    ['utf-16be', [0xfe, 0xff]],
  ] as const) {
    const bytes = Buffer.concat([Buffer.from(bom), iconv.encode('Grüße aus Köln\n\n日本語のテキスト', encoding)]);
    const doc = await parsePath(write(dir.path, `utf16-${encoding}.txt`, bytes));
    t.deepEqual(
      doc.blocks.map((b) => b.text),
      ['Grüße aus Köln', '日本語のテキスト'],
      encoding,
    );
  }
});

test('text: Shift_JIS is guessed by chardet', (t) => {
  const text = 'これは日本語の文章です。東京都の天気は晴れでしょう。明日も良い天気になるといいですね。'.repeat(3);
  t.is(decodeText(iconv.encode(text, 'Shift_JIS')).text, text);
});

test('csv: semicolons detected, first row names the columns', async (t) => {
  const csv = 'Region;Sales;Comment\nWest;12;"fine; really"\nEast;7,5;\n\n';
  t.is(sniffDelimiter(csv), ';');
  const doc = await parsePath(write(dir.path, 'sales.csv', csv));
  t.is(doc.mediaType, 'text/csv');
  t.deepEqual(
    doc.blocks.map((b) => [b.kind, b.page, b.text]),
    [
      ['table_row', 1, 'Region | Sales | Comment'],
      ['table_row', 1, 'Region: West; Sales: 12; Comment: fine; really'],
      ['table_row', 1, 'Region: East; Sales: 7,5'],
    ],
  );
});

test('csv: tabs and pipes; a numeric first row is data, not a header', (t) => {
  t.is(sniffDelimiter('a\tb\tc\n1\t2\t3\n'), '\t');
  t.is(sniffDelimiter('a|b\n1|2\n'), '|');
  t.is(sniffDelimiter('name,city\n"Doe, Jane",Paris\n'), ',');
});

test('csv: rows without a label row are joined with pipes', async (t) => {
  const doc = await parsePath(write(dir.path, 'numbers.csv', '1,2,3\n4,5,6\n'));
  t.deepEqual(
    doc.blocks.map((b) => b.text),
    ['1 | 2 | 3', '4 | 5 | 6'],
  );
});

const MARKDOWN = `---
title: Guide
---
# Getting started

Install **Vite** with *npm* — see [the docs](https://vite.dev) &amp; enjoy.

::: tip Faster installs
Use pnpm for speed.
:::

## Options

| Option | Default |
|--------|--------:|
| \`port\` | 5173 |
| open | false |

- Top item
  - Nested item
    1. Deep item

> Quoted wisdom.

\`\`\`ts title="vite.config.ts"
export default {
  server: { port: 5173 },
}
\`\`\`
`;

test('markdown: headings and paths, inline markup stripped, containers and front matter, tables, lists, quotes, code kept as is', async (t) => {
  const doc = await parsePath(write(dir.path, 'guide.md', MARKDOWN));
  t.is(doc.mediaType, 'text/markdown');
  t.false(doc.blocks.some((b) => b.text.includes('title: Guide') || b.text.includes(':::')));
  t.like(doc.blocks[0], { kind: 'heading', level: 1, text: 'Getting started', headingPath: [] });
  t.is(blockWith(doc, 'Install')!.text, 'Install Vite with npm — see the docs & enjoy.');
  t.like(blockWith(doc, 'Faster installs'), { kind: 'paragraph' });
  t.like(blockWith(doc, 'pnpm'), { kind: 'paragraph', text: 'Use pnpm for speed.' });
  t.like(blockWith(doc, 'Options'), { kind: 'heading', level: 2, headingPath: ['Getting started'] });
  t.deepEqual(
    doc.blocks.filter((b) => b.kind === 'table_row').map((b) => b.text),
    ['Option | Default', 'Option: port; Default: 5173', 'Option: open; Default: false'],
  );
  t.like(blockWith(doc, 'Top item'), { kind: 'list_item', level: 0, headingPath: ['Getting started', 'Options'] });
  t.like(blockWith(doc, 'Nested item'), { kind: 'list_item', level: 1 });
  t.like(blockWith(doc, 'Deep item'), { kind: 'list_item', level: 2 });
  t.like(blockWith(doc, 'Quoted'), { kind: 'quote', text: 'Quoted wisdom.' });
  t.like(blockWith(doc, 'export default'), { kind: 'code', text: 'export default {\n  server: { port: 5173 },\n}' });
  t.true(doc.blocks.every((b) => b.page === 1));
});

const HTML = `<!DOCTYPE html>
<html><head><meta charset="windows-1252"><title>Ignored title</title><style>p { color: red }</style></head>
<body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<header><h1>Caf\xe9 menu</h1></header>
<main>
<p>Fresh bread &amp; pastries,
   every   morning.</p>
<h2>Prices</h2>
<table>
<thead><tr><th>Item</th><th>Price</th></tr></thead>
<tbody><tr><td>Croissant</td><td>1.20</td></tr><tr><td>Baguette</td><td>0.95</td></tr></tbody>
</table>
<ul><li>Open daily<ul><li>Except Mondays</li></ul></li></ul>
<blockquote><p>Best in town.</p></blockquote>
<pre><code>opening = "07:00"
closing = "19:00"</code></pre>
<script>document.write('tracking')</script>
<div class="cookie-banner">We use cookies</div>
</main>
<footer>Copyright 2026</footer>
</body></html>`;

test('html: structure to blocks, noise dropped, entities decoded, <meta charset> respected', async (t) => {
  const doc = await parsePath(write(dir.path, 'page.txt', iconv.encode(HTML, 'windows-1252')));
  t.is(doc.mediaType, 'text/html', 'sniffed from <!DOCTYPE html>, whatever the name says');
  const texts = doc.blocks.map((b) => b.text).join('\n');
  for (const noise of ['Home', 'Ignored title', 'color: red', 'tracking', 'cookies', 'Copyright']) t.false(texts.includes(noise), noise);
  t.like(doc.blocks[0], { kind: 'heading', level: 1, text: 'Café menu' });
  t.like(blockWith(doc, 'Fresh bread'), { kind: 'paragraph', text: 'Fresh bread & pastries, every morning.', headingPath: ['Café menu'] });
  t.deepEqual(
    doc.blocks.filter((b) => b.kind === 'table_row').map((b) => b.text),
    ['Item | Price', 'Item: Croissant; Price: 1.20', 'Item: Baguette; Price: 0.95'],
  );
  t.like(blockWith(doc, 'Open daily'), { kind: 'list_item', level: 0, text: 'Open daily', headingPath: ['Café menu', 'Prices'] });
  t.like(blockWith(doc, 'Except Mondays'), { kind: 'list_item', level: 1 });
  t.like(blockWith(doc, 'Best in town'), { kind: 'quote' });
  t.like(blockWith(doc, 'opening'), { kind: 'code', text: 'opening = "07:00"\nclosing = "19:00"' });
});

test('html: a nested table stays inside its cell', async (t) => {
  const html = '<html><body><table><tr><td>outer</td><td><table><tr><td>in1</td><td>in2</td></tr></table></td></tr></table><p>after</p></body></html>';
  const doc = await parsePath(write(dir.path, 'nested.html', html));
  t.deepEqual(
    doc.blocks.map((b) => [b.kind, b.text]),
    [
      ['table_row', 'outer | in1 | in2'],
      ['paragraph', 'after'],
    ],
  );
});

test('every parser reports progress where pages exist', async (t) => {
  const { parseText } = await import('../../src/parsing/text.ts');
  const seen: [number, number][] = [];
  await parseText({
    path: write(dir.path, 'pages.txt', 'one\fthree\ftwo'),
    fileName: 'pages.txt',
    mediaType: 'text/plain',
    limits: { maxUncompressedBytes: 1e9, maxPages: 10, ocr: false },
    onProgress: (done, total) => seen.push([done, total]),
  });
  t.deepEqual(seen, [
    [1, 3],
    [2, 3],
    [3, 3],
  ]);
  t.is(pageOf(await parsePath(write(dir.path, 'p.txt', 'a\fb')), 'b'), 2);
});

withSharedData(test, 'markdown: shared fixtures', () => {
  const open = (name: string) => parsePath(sharedDoc('md', name));

  test('markdown: codeblock.md keeps its code blocks verbatim under their headings', async (t) => {
    const doc = await open('codeblock.md');
    const code = doc.blocks.filter((b) => b.kind === 'code');
    t.is(code.length, 3);
    t.true(code[0]!.text.startsWith('<!DOCTYPE html>\n<html lang="en">'));
    t.deepEqual(code[0]!.headingPath, ['HTML Example']);
  });

  test('markdown: simple-table.md rows carry their headers', async (t) => {
    const doc = await open('simple-table.md');
    t.truthy(blockWith(doc, 'Item: Bananas; Price: 1.89; # In stock: 6'));
  });

  test('markdown: testMARKDOWN.md', async (t) => {
    const doc = await open('testMARKDOWN.md');
    t.like(blockWith(doc, 'Some bold'), { text: 'Some bold and italic and struck text with inline code.' });
    t.like(blockWith(doc, 'a quote'), { kind: 'quote' });
    t.like(blockWith(doc, 'println'), { kind: 'code', text: 'System.out.println("hi");' });
    t.truthy(blockWith(doc, 'L: a; C: b; R: c'));
    t.truthy(blockWith(doc, 'Café naïve résumé'));
    t.like(blockWith(doc, 'fourth'), { kind: 'list_item', level: 0 });
  });

  test('markdown: umlauts-utf8.md', async (t) => {
    t.truthy(blockWith(await open('umlauts-utf8.md'), 'äöüß'));
  });

  test('markdown: Vite guides: containers read as paragraphs, headings nest, code and tables kept', async (t) => {
    const env = await open('vite-guide-env-and-mode.md');
    t.false(env.blocks.some((b) => b.text.includes(':::')));
    t.like(blockWith(env, 'Built-in Constants'), { kind: 'heading', level: 2, headingPath: ['Env Variables and Modes'] });
    t.like(blockWith(env, 'Env parsing'), { kind: 'paragraph', headingPath: ['Env Variables and Modes', 'Env Variables'] });
    t.like(blockWith(env, 'VITE_SOME_KEY=123'), { kind: 'code', text: 'VITE_SOME_KEY=123\nDB_PASSWORD=foobar' });
    const index = await open('vite-guide-index.md');
    t.truthy(blockWith(index, 'JavaScript: react; TypeScript: react-ts'));
    t.like(blockWith(index, 'Compatibility Note'), { kind: 'paragraph' });
    t.like(blockWith(index, 'pronounced'), { text: 'Vite (French word for "quick", pronounced /viːt/, like "veet") is a build tool that aims to provide a faster and leaner development experience for modern web projects. It consists of two major parts:' });
    for (const doc of [env, index]) t.is(doc.pageCount, 1);
  });
});
