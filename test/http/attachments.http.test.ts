import anyTest, { type TestFn } from 'ava';
import { Document, Packer, Paragraph } from 'docx';
import { settledDocument, uploadFiles } from '../helpers/documents.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { eml } from '../unit/parsing-formats-fixtures.ts';
import { workbook, xls } from '../unit/parsing-legacy-fixtures.ts';
import { pdf } from '../unit/parsing-pdf-fixtures.ts';

/** An email's attachments become documents of their own, linked to it, and go when it goes. */

const test = anyTest as TestFn<{ server: TestServer; kb: string }>;
test.before(async (t) => {
  // Five documents polled at once would meet the rate limit.
  t.context.server = await startServer({ KBQA_MAX_UPLOAD_MB: '1', KBQA_RATE_LIMIT_PER_MINUTE: '0' });
  t.context.kb = (await t.context.server.call('POST', '/v1/knowledge-bases', { json: { name: 'Mail' } })).body.id;
});
test.after.always((t) => t.context.server?.close());

const part = (name: string, type: string, bytes: Buffer) => ['--mix', `Content-Type: ${type}; name="${name}"`, `Content-Disposition: attachment; filename="${name}"`, 'Content-Transfer-Encoding: base64', '', bytes.toString('base64').replace(/.{76}/g, '$&\r\n')];

// docx stamps the time into the package: the email is made once, so uploading it again sends the same bytes.
let made: Promise<Buffer> | undefined;
const mail = () => (made ??= makeMail());

async function makeMail() {
  const docx = await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph('Photovoltaic output rose by a third at the Almeria plant.')] }] }));
  const report = await pdf((doc) => doc.fontSize(12).text('The turbine inspection found hairline cracks in blade four.'));
  return eml([
    'From: ops@example.com',
    'To: team@example.com',
    'Subject: Weekly figures',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary=mix',
    '',
    '--mix',
    'Content-Type: text/plain',
    '',
    'Please find the weekly figures attached.',
    ...part('plant.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', docx),
    ...part('inspection.pdf', 'application/pdf', report),
    ...part('sales.csv', 'text/csv', Buffer.from('Region,Sales\nGranada,41\nSevilla,17\n')),
    ...part('ledger.xls', 'application/vnd.ms-excel', xls(workbook([{ name: 'Ledger', rows: [['Account', 'Balance'], ['Petty cash', 310]] }]))),
    ...part('broken.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', Buffer.from('PK\u0003\u0004 this is not a real archive at all')),
    ...part('tool.bin', 'application/octet-stream', Buffer.from([0, 1, 2, 3, 0, 255, 7, 0])),
    '--mix--',
  ]);
}

const search = (t: { context: { server: TestServer; kb: string } }, query: string) =>
  t.context.server.call('POST', `/v1/knowledge-bases/${t.context.kb}/search`, { json: { query, top_k: 3 } });

test.serial('each readable attachment is a document of its own, linked to the email, searchable under its file name', async (t) => {
  const { server, kb } = t.context;
  const res = await uploadFiles(server, kb, [{ name: 'weekly.eml', bytes: await mail() }], { metadata: JSON.stringify({ team: 'ops' }) });
  t.is(res.status, 202);
  const email = await settledDocument(server, kb, res.body.data[0].id);
  t.like(email, { status: 'ready', media_type: 'message/rfc822', parent_document_id: null });
  t.true(email.warnings.some((w: string) => /^Attachment "tool\.bin" was not added/.test(w)), email.warnings.join('\n'));

  const list = (await server.call('GET', `/v1/knowledge-bases/${kb}/documents?limit=100&order=asc`)).body.data;
  const children = list.filter((d: any) => d.parent_document_id === email.id);
  t.deepEqual(children.map((d: any) => [d.id, d.name]), [
    [`${email.id}_att1`, 'plant.docx'],
    [`${email.id}_att2`, 'inspection.pdf'],
    [`${email.id}_att3`, 'sales.csv'],
    [`${email.id}_att4`, 'ledger.xls'],
    [`${email.id}_att5`, 'broken.docx'],
  ]);
  const done = await Promise.all(children.map((d: any) => settledDocument(server, kb, d.id)));
  t.deepEqual(done.map((d) => [d.status, d.media_type, d.error?.code ?? null]), [
    ['ready', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', null],
    ['ready', 'application/pdf', null],
    ['ready', 'text/csv', null],
    ['ready', 'application/vnd.ms-excel', null],
    ['failed', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'corrupt'],
  ]);
  t.deepEqual(done[0].metadata, { team: 'ops' }, 'the email\'s metadata carries over');

  const chunks = (await server.call('GET', `/v1/knowledge-bases/${kb}/documents/${email.id}/chunks`)).body.data.map((c: any) => c.paragraph).join('\n');
  t.regex(chunks, /plant\.docx/);
  t.notRegex(chunks, /Photovoltaic/, 'the email no longer inlines its attachments');

  for (const [query, name] of [['Photovoltaic output Almeria', 'plant.docx'], ['hairline cracks turbine blade', 'inspection.pdf'], ['Granada sales', 'sales.csv'], ['petty cash balance', 'ledger.xls']]) {
    const top = (await search(t, query!)).body.data[0];
    t.like(top, { source: name, document_id: children.find((d: any) => d.name === name).id }, query);
  }
});

test.serial('the same email again is the same document, and makes no second set of attachments', async (t) => {
  const { server, kb } = t.context;
  const before = (await server.call('GET', `/v1/knowledge-bases/${kb}/documents?limit=100`)).body.data.length;
  const res = await uploadFiles(server, kb, [{ name: 'weekly-again.eml', bytes: await mail() }]);
  const again = (await server.call('GET', `/v1/knowledge-bases/${kb}/documents?limit=100`)).body.data;
  t.is(again.length, before);
  t.truthy(again.find((d: any) => d.id === res.body.data[0].id && d.name === 'weekly.eml'));
});

test.serial('deleting the email deletes its attachments\' documents and takes them out of search', async (t) => {
  const { server, kb } = t.context;
  const email = (await server.call('GET', `/v1/knowledge-bases/${kb}/documents?limit=100`)).body.data.find((d: any) => d.name === 'weekly.eml');
  t.is((await server.call('DELETE', `/v1/knowledge-bases/${kb}/documents/${email.id}`)).status, 200);
  t.is((await server.call('GET', `/v1/knowledge-bases/${kb}/documents/${email.id}_att1`)).status, 404);
  t.deepEqual((await server.call('GET', `/v1/knowledge-bases/${kb}/documents?limit=100`)).body.data, []);
  t.false((await search(t, 'Photovoltaic output Almeria')).body.data.some((h: any) => h.source === 'plant.docx'));
  t.is((await server.call('DELETE', `/v1/knowledge-bases/${kb}/documents/${email.id}`)).status, 404);
});
