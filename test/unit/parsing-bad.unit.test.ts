import test from 'ava';
import iconv from 'iconv-lite';
import ExcelJS from 'exceljs';
import { Document, Packer, Paragraph } from 'docx';
import { parseDocx } from '../../src/parsing/office/docx.ts';
import { parseXlsx } from '../../src/parsing/office/xlsx.ts';
import { DEFAULT_LIMITS, MEDIA_TYPES, type ParseFailure, type ParseLimits } from '../../src/parsing/types.ts';
import { sharedDoc, withSharedData } from '../helpers/shared-data.ts';
import { tempDir } from '../helpers/temp.ts';
import { handmadeDocx, p, parsePath, write, zip } from './parsing-fixtures.ts';

const dir = tempDir('kbqa-parsing-bad-');
test.after.always(() => dir.remove());

/** Resolves to the failure code a file ends with: from detection or from the parser. */
async function failureOf(path: string, limits: ParseLimits = DEFAULT_LIMITS): Promise<string> {
  try {
    await parsePath(path, limits);
    return 'parsed';
  } catch (error) {
    const code = (error as ParseFailure).code;
    if (!code) throw error;
    return code;
  }
}

const BOMB = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><w:document><w:body>&lol2;</w:body></w:document>';

test('zip bomb by declared sizes: refused before anything is inflated', async (t) => {
  const bytes = handmadeDocx(p('tiny'), { extraParts: [{ name: 'word/media/huge.bin', data: 'x'.repeat(1000), declaredSize: 3_000_000_000 }] });
  t.is(await failureOf(write(dir.path, 'declared.docx', bytes)), 'too_large');
  const small = { ...DEFAULT_LIMITS, maxUncompressedBytes: 1000 };
  t.is(await failureOf(write(dir.path, 'small-limit.docx', handmadeDocx(p('x'.repeat(2000)))), small), 'too_large');
});

test('zip bomb by compression ratio: a megabytes-large part from a few kilobytes', async (t) => {
  const bytes = handmadeDocx(p('tiny'), { extraParts: [{ name: 'word/media/zeros.bin', data: Buffer.alloc(4 * 1024 * 1024) }] });
  t.true(bytes.length < 20_000);
  t.is(await failureOf(write(dir.path, 'ratio.docx', bytes)), 'too_large');
  const workbook = zip([
    { name: 'xl/workbook.xml', data: '<workbook/>' },
    { name: 'xl/worksheets/sheet1.xml', data: `<worksheet>${' '.repeat(3 * 1024 * 1024)}</worksheet>` },
  ]);
  t.is(await failureOf(write(dir.path, 'ratio.xlsx', workbook)), 'too_large');
});

test('a part that inflates to more than it declared is corrupt', async (t) => {
  const bytes = handmadeDocx(p('tiny'), { extraParts: [{ name: 'word/styles.xml', data: `<w:styles>${' '.repeat(5000)}</w:styles>`, declaredSize: 100 }] });
  t.is(await failureOf(write(dir.path, 'lying.docx', bytes)), 'corrupt');
});

test('XML with a DTD is refused before any XML parser sees it (docx and xlsx, UTF-8 and UTF-16)', async (t) => {
  const docx = zip([
    { name: '_rels/.rels', data: '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>' },
    { name: 'word/document.xml', data: BOMB },
  ]);
  t.is(await failureOf(write(dir.path, 'bomb.docx', docx)), 'unsafe_content');
  const xlsx = zip([
    { name: 'xl/workbook.xml', data: '<workbook/>' },
    { name: 'xl/sharedStrings.xml', data: Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(BOMB, 'utf-16le')]) },
  ]);
  t.is(await failureOf(write(dir.path, 'bomb.xlsx', xlsx)), 'unsafe_content');
});

test('broken archives are corrupt, never a raw library error', async (t) => {
  t.is(await failureOf(write(dir.path, 'cut.docx', handmadeDocx(p('hello')).subarray(0, 120))), 'corrupt');
  const noDocument = zip([{ name: 'word/document.xml', data: '<not-word/>' }]);
  t.is(await failureOf(write(dir.path, 'odd.docx', noDocument)), 'corrupt');
  const args = (path: string) => ({ path, fileName: 'x', mediaType: MEDIA_TYPES.xlsx, limits: DEFAULT_LIMITS });
  const error = await t.throwsAsync(parseXlsx(args(write(dir.path, 'garbage.xlsx', zip([{ name: 'xl/workbook.xml', data: '<<<not xml' }])))));
  t.is((error as ParseFailure).name, 'ParseFailure');
  t.is((error as ParseFailure).code, 'corrupt');
  const encrypted = handmadeDocx(p('hello'), { extraParts: [{ name: 'word/secret.xml', data: 'x', encrypted: true }] });
  t.is(await failureOf(write(dir.path, 'zipcrypto.docx', encrypted)), 'encrypted');
});

test('documents without text are empty', async (t) => {
  const docx = await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph('')] }] }));
  t.is(await failureOf(write(dir.path, 'blank.docx', docx)), 'empty');
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('Empty');
  workbook.addWorksheet('Data', { state: 'hidden' }).addRow(['only', 'hidden']);
  t.is(await failureOf(write(dir.path, 'blank.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()))), 'empty');
  t.is(await failureOf(write(dir.path, 'blank.md', '\n\n   \n')), 'empty');
  t.is(await failureOf(write(dir.path, 'blank.html', '<html><body><script>x()</script></body></html>')), 'empty');
});

test('more pages than the limit is too large', async (t) => {
  t.is(await failureOf(write(dir.path, 'pages.txt', 'a\fb\fc'), { ...DEFAULT_LIMITS, maxPages: 2 }), 'too_large');
});

withSharedData(test, 'bad: shared malformed office files', () => {
  const cases: [string, string][] = [
    ['empty.docx', 'empty'],
    ['empty.xlsx', 'empty'],
    ['password_protected.xlsx', 'encrypted'],
    ['testWORD_protected_passtika.docx', 'encrypted'],
    ['testWORD_truncated.docx', 'corrupt'],
    ['poc-xmlbomb.xlsx', 'unsafe_content'],
    ['zipbomb-100MiB.docx', 'too_large'],
  ];
  for (const [name, code] of cases) {
    test(`bad: ${name} → ${code}`, async (t) => {
      t.is(await failureOf(sharedDoc('bad', name)), code);
    });
  }

  test('bad: text-disguised-as.docx is detected as text and parsed', async (t) => {
    const doc = await parsePath(sharedDoc('bad', 'text-disguised-as.docx'));
    t.is(doc.mediaType, MEDIA_TYPES.text);
    t.regex(doc.blocks.map((b) => b.text).join(' '), /plain UTF-8 text saved with a \.docx extension/);
  });

  test('bad: the office parsers themselves also refuse the encrypted wrappers as unreadable archives', async (t) => {
    const args = (name: string) => ({ path: sharedDoc('bad', name), fileName: name, mediaType: MEDIA_TYPES.docx, limits: DEFAULT_LIMITS });
    t.is(((await t.throwsAsync(parseDocx(args('testWORD_protected_passtika.docx')))) as ParseFailure).code, 'corrupt');
  });
});
