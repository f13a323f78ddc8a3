import test from 'ava';
import { tempDir } from '../helpers/temp.ts';
import { blockWith, pageOf, parsePath, write, zip } from './parsing-fixtures.ts';
import { eml, epub, para, pptx, shape, slide, table, xhtml } from './parsing-formats-fixtures.ts';

/** PPTX, EPUB and EML from fixtures made here (the shared files: parsing-formats-shared.unit.test.ts). */

const dir = tempDir('kbqa-parsing-formats-');
test.after.always(() => dir.remove());

const failsWith = async (t: import('ava').ExecutionContext, name: string, bytes: Buffer | string, code: string) => {
  const error = await t.throwsAsync(parsePath(write(dir.path, name, bytes)));
  t.is((error as { code?: string }).code, code, error?.message);
};

test('pptx: a slide is a page in presentation order; titles head it, shapes read top to bottom, tables by row, notes under "Notes"', async (t) => {
  const bytes = pptx([
    { xml: slide([shape([para('Quarterly review')], { type: 'ctrTitle' }), shape([para('Prepared by finance')], { type: 'subTitle' })]) },
    {
      xml: slide([
        shape([para('Bottom line: profit rose')], { at: [0, 5000] }),
        shape([para('Results')], { type: 'title', at: [0, 0] }),
        shape([para('Sales grew'), para('in the west', 1)], { at: [0, 1000] }),
        table([['Region', 'Sales'], ['West', '12'], ['East', '7']], [0, 3000]),
        shape([para('2')], { type: 'sldNum', at: [0, 9000] }),
      ]),
      notes: shape([para('')], { type: 'sldImg' }) + shape([para('Mention the new office.')], { type: 'body' }),
    },
    { xml: slide([shape([para('Questions?')], { type: 'title' })]), notes: shape([para('')], { type: 'body' }) },
  ]);
  const doc = await parsePath(write(dir.path, 'deck.pptx', bytes));
  t.is(doc.mediaType, 'application/vnd.openxmlformats-officedocument.presentationml.presentation');
  t.is(doc.pageCount, 3);
  t.like(blockWith(doc, 'Quarterly review'), { kind: 'heading', level: 1, page: 1 });
  t.like(blockWith(doc, 'Results'), { kind: 'heading', page: 2, headingPath: [] });
  t.like(blockWith(doc, 'in the west'), { kind: 'list_item', level: 1 });
  t.like(blockWith(doc, 'Region: West; Sales: 12'), { kind: 'table_row', page: 2, headingPath: ['Results'] });
  const order = ['Sales grew', 'Region: West', 'Bottom line'].map((needle) => doc.blocks.findIndex((b) => b.text.includes(needle)));
  t.deepEqual([...order].sort((a, b) => a - b), order, 'shapes by position, not by z-order');
  t.falsy(doc.blocks.find((b) => b.text === '2'), 'slide numbers are furniture');
  t.like(blockWith(doc, 'Mention the new office.'), { page: 2, headingPath: ['Results', 'Notes'] });
  t.is(doc.blocks.filter((b) => b.text === 'Notes').length, 1, 'an empty notes page adds no heading');
  t.is(pageOf(doc, 'Questions?'), 3);
});

test('pptx: a hidden slide keeps its number but not its text', async (t) => {
  const bytes = pptx([{ xml: slide([shape([para('Secret plan')])], ' show="0"') }, { xml: slide([shape([para('Public plan')])]) }]);
  const doc = await parsePath(write(dir.path, 'hidden.pptx', bytes));
  t.is(pageOf(doc, 'Public plan'), 2);
  t.falsy(blockWith(doc, 'Secret plan'));
  t.deepEqual(doc.warnings, ['Slide 1 is hidden and was skipped.']);
});

test('pptx: bad files fail with their codes', async (t) => {
  await failsWith(t, 'none.pptx', pptx([]), 'empty');
  await failsWith(t, 'blank.pptx', pptx([{ xml: slide([]) }]), 'empty');
  const bomb = slide([shape([para('x')])]).replace('?>', '?><!DOCTYPE lolz [<!ENTITY lol "lol">]>');
  await failsWith(t, 'bomb.pptx', pptx([{ xml: bomb }]), 'unsafe_content');
  await failsWith(t, 'zipbomb.pptx', pptx([{ xml: slide([]) }], [{ name: 'ppt/media/big.bin', data: 'x', declaredSize: 300 * 1024 * 1024 }]), 'too_large');
  const good = pptx([{ xml: slide([shape([para('x')])]) }]);
  await failsWith(t, 'truncated.pptx', good.subarray(0, good.length - 30), 'corrupt');
});

test('epub: spine order, a page per spine item, chapter headings kept', async (t) => {
  const bytes = epub(
    [
      { href: 'nav.xhtml', html: xhtml('<nav><ol><li>Contents</li></ol></nav>') },
      { href: 'ch2.xhtml', html: xhtml('<h1>Chapter Two</h1><p>The storm arrived.</p>') },
      { href: 'text/ch1.xhtml', html: xhtml('<h1>Chapter One</h1><h2>Morning</h2><p>The sun rose.</p><table><tr><th>Day</th><th>Rain</th></tr><tr><td>Mon</td><td>3</td></tr></table>') },
    ],
    ['text/ch1.xhtml', 'ch2.xhtml'],
  );
  const doc = await parsePath(write(dir.path, 'book.epub', bytes));
  t.is(doc.mediaType, 'application/epub+zip');
  t.is(doc.pageCount, 2);
  t.like(blockWith(doc, 'The sun rose.'), { page: 1, headingPath: ['Chapter One', 'Morning'] });
  t.like(blockWith(doc, 'Day: Mon; Rain: 3'), { kind: 'table_row', page: 1 });
  t.like(blockWith(doc, 'The storm arrived.'), { page: 2, headingPath: ['Chapter Two'] });
  t.falsy(blockWith(doc, 'Contents'), 'the navigation document is not in the spine');
});

test('epub: an EPUB 2 chapter with its XHTML doctype and self-closed elements reads normally', async (t) => {
  const doctype = '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">';
  const html = xhtml('<h2>Prologue<a id="p1"/></h2><p>It began at night.</p>').replace('?>', `?>${doctype}`);
  const doc = await parsePath(write(dir.path, 'epub2.epub', epub([{ href: 'p.xhtml', html }], ['p.xhtml'])));
  t.like(blockWith(doc, 'It began at night.'), { kind: 'paragraph', headingPath: ['Prologue'] });
});

test('epub: bad files fail with their codes', async (t) => {
  await failsWith(t, 'nocontainer.epub', zip([{ name: 'mimetype', data: 'application/epub+zip', store: true }]), 'corrupt');
  await failsWith(t, 'nospine.epub', epub([{ href: 'a.xhtml', html: xhtml('<p>x</p>') }], []), 'empty');
  const entities = xhtml('<p>&lol;</p>').replace('?>', '?><!DOCTYPE html [<!ENTITY lol "lol">]>');
  await failsWith(t, 'entities.epub', epub([{ href: 'a.xhtml', html: entities }], ['a.xhtml']), 'unsafe_content');
  const good = epub([{ href: 'a.xhtml', html: xhtml('<p>x</p>') }], ['a.xhtml']);
  await failsWith(t, 'truncated.epub', good.subarray(0, good.length - 30), 'corrupt');
});
