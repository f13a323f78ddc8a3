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

test('eml: attachments are named under "Attachments" and handed back with their decoded bytes; inline images are not attachments', async (t) => {
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
  t.is(doc.pageCount, 1);
  t.is(pageOf(doc, 'See attached.'), 1);
  t.like(blockWith(doc, 'Attachments'), { kind: 'heading', level: 2, headingPath: ['Figures'] });
  t.like(blockWith(doc, 'ventes été.csv'), { kind: 'list_item', page: 1, headingPath: ['Figures', 'Attachments'] });
  t.falsy(blockWith(doc, 'Region'), 'their text is their own documents\'');
  t.deepEqual(
    doc.attachments?.map((a) => [a.name, Buffer.from(a.bytes).toString('latin1')]),
    [
      ['ventes été.csv', 'Region,Sales\nWest,12\n'],
      ['blob.bin', Buffer.from([0, 1, 2, 3, 0, 255]).toString('latin1')],
    ],
  );
  t.deepEqual(doc.warnings, []);
});

test('eml: past 50 attachments the rest are warnings; a name from a header loses its folders', async (t) => {
  const parts = Array.from({ length: 52 }, (_, i) => [
    '--mix',
    'Content-Type: text/plain',
    `Content-Disposition: attachment; filename="../../etc/note-${i + 1}.txt"`,
    '',
    `note ${i + 1}`,
  ]).flat();
  const doc = await parsePath(write(dir.path, 'many.eml', eml(['From: a@example.com', 'Subject: Many', 'Content-Type: multipart/mixed; boundary=mix', '', '--mix', 'Content-Type: text/plain', '', 'Body.', ...parts, '--mix--'])));
  t.is(doc.attachments?.length, 50);
  t.is(doc.attachments?.[0]?.name, 'note-1.txt');
  t.deepEqual(doc.warnings, ['Attachment "note-51.txt" was skipped: more than 50 attachments.', 'Attachment "note-52.txt" was skipped: more than 50 attachments.']);
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
