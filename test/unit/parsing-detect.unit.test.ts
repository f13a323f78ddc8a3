import test from 'ava';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import iconv from 'iconv-lite';
import { detectMediaType } from '../../src/parsing/detect.ts';
import { MEDIA_TYPES } from '../../src/parsing/types.ts';
import { sharedDoc, withSharedData } from '../helpers/shared-data.ts';
import { tempDir } from '../helpers/temp.ts';
import { compoundFile, handmadeDocx, p, write, zip } from './parsing-fixtures.ts';

const dir = tempDir('kbqa-parsing-detect-');
test.after.always(() => dir.remove());

const detect = (name: string, bytes: Buffer | string) => detectMediaType(write(dir.path, name, bytes), name);
const magic = (...bytes: number[]) => Buffer.concat([Buffer.from(bytes), randomBytes(64)]);

test('binary formats are recognised by their signatures, not their names', async (t) => {
  t.like(await detect('scan.bin', Buffer.concat([Buffer.from('garbage before the header\n'), Buffer.from('%PDF-1.7\n%âãÏÓ\n')])), { ok: true, mediaType: MEDIA_TYPES.pdf });
  t.like(await detect('photo.pdf', magic(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)), { ok: true, mediaType: MEDIA_TYPES.png });
  t.like(await detect('a.png', magic(0xff, 0xd8, 0xff, 0xe0)), { ok: true, mediaType: MEDIA_TYPES.jpeg });
  t.like(await detect('intel.tif', magic(0x49, 0x49, 0x2a, 0x00)), { ok: true, mediaType: MEDIA_TYPES.tiff });
  t.like(await detect('motorola.tif', magic(0x4d, 0x4d, 0x00, 0x2a)), { ok: true, mediaType: MEDIA_TYPES.tiff });
  t.like(await detect('random.docx', Buffer.concat([Buffer.from([1, 2, 0, 0]), randomBytes(4096)])), { ok: false, code: 'unsupported_type' });
});

test('ZIPs are told apart by their entries', async (t) => {
  t.like(await detect('letter.bin', handmadeDocx(p('hello'))), { ok: true, mediaType: MEDIA_TYPES.docx });
  t.like(await detect('book', zip([{ name: 'xl/workbook.xml', data: '<workbook/>' }])), { ok: true, mediaType: MEDIA_TYPES.xlsx });
  t.like(await detect('photos.zip', zip([{ name: 'a.jpg', data: 'x' }])), { ok: false, code: 'unsupported_type' });
  const truncated = handmadeDocx(p('hello')).subarray(0, 200);
  t.like(await detect('broken.docx', truncated), { ok: true, mediaType: MEDIA_TYPES.docx }, 'an unreadable directory leaves it to the name, and the parser reports corrupt');
  t.like(await detect('broken.zip', truncated), { ok: false, code: 'corrupt' });
});

test('text that merely starts with "PK" is text, not a ZIP (a SciFact title: "PKD1 Inhibits AMPKα2")', async (t) => {
  t.like(await detect('23974474.txt', 'PKD1 Inhibits AMPKα2 through Phosphorylation of Serine 491.'), { ok: true, mediaType: MEDIA_TYPES.text });
});

test('OLE2 files: EncryptedPackage means a password-protected Office file; the main stream tells .doc, .xls and .ppt apart', async (t) => {
  t.like(await detect('secret.xlsx', compoundFile(['EncryptionInfo', 'EncryptedPackage'])), { ok: false, code: 'encrypted' });
  t.like(await detect('old.bin', compoundFile(['WordDocument', '1Table'])), { ok: true, mediaType: MEDIA_TYPES.doc });
  t.like(await detect('old.dat', compoundFile(['Workbook'])), { ok: true, mediaType: MEDIA_TYPES.xls });
  t.like(await detect('older.xls', compoundFile(['Book'])), { ok: true, mediaType: MEDIA_TYPES.xls }, 'BIFF5 names its stream Book');
  const ppt = await detect('deck.ppt', compoundFile(['PowerPoint Document', 'Current User']));
  t.like(ppt, { ok: false, code: 'unsupported_type' });
  t.regex(ppt.ok ? '' : ppt.message, /\.pptx/, 'the message says what to do instead');
  t.like(await detect('thumbs.db', compoundFile(['Catalog'])), { ok: false, code: 'unsupported_type' });
  t.like(await detect('cut.xlsx', compoundFile(['EncryptedPackage']).subarray(0, 700)), { ok: false, code: 'unsupported_type' }, 'a directory that is cut off names nothing');
});

test('empty files are empty', async (t) => {
  t.like(await detect('nothing.txt', ''), { ok: false, code: 'empty' });
});

test('text: kinds by sniffing, then by extension; sniffing beats a misleading name', async (t) => {
  t.like(await detect('page.txt', '  <!doctype html><html><body>x</body></html>'), { ok: true, mediaType: MEDIA_TYPES.html });
  t.like(await detect('page.bin', '<?xml version="1.0"?>\n<!-- c -->\n<html lang="en">'), { ok: true, mediaType: MEDIA_TYPES.html });
  t.like(await detect('page.htm', '<p>fragment</p>'), { ok: true, mediaType: MEDIA_TYPES.html });
  t.like(await detect('README.md', '# Title'), { ok: true, mediaType: MEDIA_TYPES.markdown });
  t.like(await detect('notes.markdown', 'text'), { ok: true, mediaType: MEDIA_TYPES.markdown });
  t.like(await detect('data.csv', 'a,b\n1,2\n'), { ok: true, mediaType: MEDIA_TYPES.csv });
  t.like(await detect('report.docx', 'Just two lines.\nOf text.\n'), { ok: true, mediaType: MEDIA_TYPES.text });
  t.like(await detect('legacy.txt', iconv.encode('Größe: 5 €, naïve café', 'windows-1252')), { ok: true, mediaType: MEDIA_TYPES.text });
  t.like(await detect('utf16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode('<html><body>hi', 'utf-16le')])), { ok: true, mediaType: MEDIA_TYPES.html });
  t.like(await detect('utf16be.md', Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode('# Hi', 'utf-16be')])), { ok: true, mediaType: MEDIA_TYPES.markdown });
  t.like(await detect('nul.txt', 'text with a \0 NUL'), { ok: false, code: 'unsupported_type' });
});

withSharedData(test, 'detect: shared fixtures', () => {
  const expected: Record<string, string> = { docx: MEDIA_TYPES.docx, xlsx: MEDIA_TYPES.xlsx, md: MEDIA_TYPES.markdown, pdf: MEDIA_TYPES.pdf };
  for (const [folder, mediaType] of Object.entries(expected)) {
    test(`detect: every shared ${folder} file`, async (t) => {
      for (const name of readdirSync(sharedDoc(folder))) t.like(await detectMediaType(sharedDoc(folder, name), name), { ok: true, mediaType }, name);
    });
  }

  test('detect: shared images and bad files', async (t) => {
    t.like(await detectMediaType(sharedDoc('scanned', 'testocr.png'), 'testocr.png'), { ok: true, mediaType: MEDIA_TYPES.png });
    t.like(await detectMediaType(sharedDoc('scanned', 'phototest.tif'), 'phototest.tif'), { ok: true, mediaType: MEDIA_TYPES.tiff });
    t.like(await detectMediaType(sharedDoc('scanned', 'layout-parser-paper-with-table.jpg'), 'x.jpg'), { ok: true, mediaType: MEDIA_TYPES.jpeg });
    t.like(await detectMediaType(sharedDoc('bad', 'password_protected.xlsx'), 'password_protected.xlsx'), { ok: false, code: 'encrypted' });
    t.like(await detectMediaType(sharedDoc('bad', 'testWORD_protected_passtika.docx'), 'testWORD_protected_passtika.docx'), { ok: false, code: 'encrypted' });
    t.like(await detectMediaType(sharedDoc('bad', 'text-disguised-as.docx'), 'text-disguised-as.docx'), { ok: true, mediaType: MEDIA_TYPES.text });
    t.like(await detectMediaType(sharedDoc('bad', 'truncated-TAMReview.pdf'), 'truncated-TAMReview.pdf'), { ok: true, mediaType: MEDIA_TYPES.pdf });
  });
});
