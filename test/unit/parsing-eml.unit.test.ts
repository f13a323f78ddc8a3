import test from 'ava';
import { tempDir } from '../helpers/temp.ts';
import { blockWith, pageOf, parsePath, write } from './parsing-fixtures.ts';
import { eml } from './parsing-formats-fixtures.ts';

const dir = tempDir('kbqa-parsing-eml-');
test.after.always(() => dir.remove());

const b64 = (text: string) => Buffer.from(text).toString('base64');

test('eml: headers kept, encoded subject decoded, the HTML alternative chosen and base64 undone', async (t) => {
  const bytes = eml([
    'From: =?utf-8?B?Sm9zw6k=?= <jose@example.com>',
    'To: team@example.com',
    'Subject: =?utf-8?Q?Caf=C3=A9_menu?=',
    '  =?utf-8?Q?_update?=',
    'Date: Mon, 1 Jan 2024 10:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: multipart/alternative; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    b64('Plain version'),
    '--b1',
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    b64('<ul><li>Soup of the day</li></ul>'),
    '--b1--',
  ]);
  const doc = await parsePath(write(dir.path, 'menu.txt', bytes));
  t.is(doc.mediaType, 'message/rfc822', 'sniffed from the headers, whatever the name');
  t.like(doc.blocks[0], { kind: 'heading', text: 'Café menu update' });
  t.truthy(blockWith(doc, 'From: José <jose@example.com>'));
  t.truthy(blockWith(doc, 'Date: Mon, 1 Jan 2024'));
  t.like(blockWith(doc, 'Soup of the day'), { kind: 'list_item', headingPath: ['Café menu update'] });
  t.falsy(blockWith(doc, 'Plain version'), 'one alternative only');
});

test('eml: quoted-printable in a legacy charset', async (t) => {
  const bytes = eml([
    'From: a@example.com',
    'Subject: Note',
    'Content-Type: text/plain; charset=iso-8859-1',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    'Un caf=E9 tr=E8s long qui continue sur la ligne sui=',
    'vante.',
  ]);
  const doc = await parsePath(write(dir.path, 'note.eml', bytes));
  t.truthy(blockWith(doc, 'Un café très long qui continue sur la ligne suivante.'));
});

test('eml: readable attachments become sections on the pages after the message; the others are warnings', async (t) => {
  const bytes = eml([
    'From: a@example.com',
    'Subject: Figures',
    'Content-Type: multipart/mixed; boundary=mix',
    '',
    '--mix',
    'Content-Type: text/plain',
    '',
    'See attached.',
    '--mix',
    "Content-Type: text/csv; name*=utf-8''ventes%20%C3%A9t%C3%A9.csv",
    'Content-Disposition: attachment',
    'Content-Transfer-Encoding: base64',
    '',
    b64('Region,Sales\nWest,12\n'),
    '--mix',
    'Content-Type: application/octet-stream',
    'Content-Disposition: attachment; filename="blob.bin"',
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from([0, 1, 2, 3, 0, 255]).toString('base64'),
    '--mix',
    'Content-Type: image/png',
    'Content-Disposition: inline; filename="logo.png"',
    '',
    'ignored',
    '--mix--',
  ]);
  const doc = await parsePath(write(dir.path, 'figures.eml', bytes));
  t.is(doc.pageCount, 2);
  t.is(pageOf(doc, 'See attached.'), 1);
  t.like(blockWith(doc, 'Attachment: ventes été.csv'), { kind: 'heading', level: 1, page: 2 });
  t.like(blockWith(doc, 'Region: West; Sales: 12'), { page: 2, headingPath: ['Attachment: ventes été.csv'] });
  t.is(doc.warnings.length, 1);
  t.regex(doc.warnings[0]!, /^Attachment "blob\.bin" was not read/);
});

test('eml: raw UTF-8 in a header is read as UTF-8', async (t) => {
  const doc = await parsePath(write(dir.path, 'raw.eml', Buffer.from('From: Zoë <z@example.com>\r\nSubject: Über uns\r\n\r\nHallo.')));
  t.like(doc.blocks[0], { kind: 'heading', text: 'Über uns' });
  t.truthy(blockWith(doc, 'From: Zoë'));
});

test('eml: text that only looks a little like mail stays text', async (t) => {
  const doc = await parsePath(write(dir.path, 'diary.txt', 'Date: Monday\n\nA quiet day.'));
  t.is(doc.mediaType, 'text/plain');
});
