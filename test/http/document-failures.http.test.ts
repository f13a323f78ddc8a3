import anyTest, { type TestFn } from 'ava';
import { DOCUMENT_FAILURES } from '../../src/domain/document/failures.ts';
import { ADMIN_KEY } from '../helpers/admin-key.ts';
import { settledDocument, uploadFiles } from '../helpers/documents.ts';
import { reader } from '../helpers/event-stream.ts';
import { knowledgeBaseCreated } from '../helpers/given-events.ts';
import { type GivenEvent, httpSpec } from '../helpers/http-spec.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { uploadData } from '../helpers/upload-fixtures.ts';
import { pdf } from '../unit/parsing-pdf-fixtures.ts';

// Why documents fail, as the API reports it (issue 43 item 10): a code of the catalogue
// (src/domain/document/failures.ts), its one sentence, and what was particular to the file apart.

const test = anyTest as TestFn<{ server: TestServer; kb: string }>;
test.before(async (t) => {
  t.context.server = await startServer();
  t.context.kb = (await t.context.server.call('POST', '/v1/knowledge-bases', { json: { name: 'Failures' } })).body.id;
});
test.after.always((t) => t.context.server?.close());

const documentEvents = async (t: { context: { server: TestServer; kb: string } }, id: string) =>
  fetch(`${t.context.server.url}/v1/knowledge-bases/${t.context.kb}/documents/${id}/events`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });

test.serial('a password-protected PDF and a damaged file fail with their codes, in the catalogue’s words, the particulars apart', async (t) => {
  const locked = await pdf((doc) => doc.text('Secret text', 72, 72), { userPassword: 'open sesame', ownerPassword: 'owner' });
  const res = await uploadFiles(t.context.server, t.context.kb, [
    { name: 'locked.pdf', bytes: locked },
    { name: 'damaged.pdf', bytes: Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog garbage') },
  ]);
  t.is(res.status, 202);
  const [encrypted, corrupt] = await Promise.all(res.body.data.map((d: any) => settledDocument(t.context.server, t.context.kb, d.id)));
  t.deepEqual(encrypted.error, { stage: 'parsing', code: 'encrypted', message: DOCUMENT_FAILURES.encrypted, detail: 'The PDF is password-protected.' });
  t.like(corrupt.error, { stage: 'parsing', code: 'corrupt', message: DOCUMENT_FAILURES.corrupt });
  // What pdf.js said is the detail, never the message.
  t.regex(corrupt.error.detail, /^pdf\.js could not read/);
  // The document's own feed reports the failure as GET does.
  const feed = await (await documentEvents(t, encrypted.id)).text();
  t.true(feed.includes(`"code":"encrypted","message":"${DOCUMENT_FAILURES.encrypted}"`), feed);
});

test.serial('an unsupported type is a 415 with its code and one sentence that says what to upload', async (t) => {
  const res = await uploadFiles(t.context.server, t.context.kb, [{ name: 'tool.bin', bytes: Buffer.from([0, 1, 2, 3, 0, 0, 255, 254, 0, 7, 0, 0]) }]);
  t.is(res.status, 415);
  t.like(res.body.error, { type: 'invalid_request_error', code: 'unsupported_media_type' });
  t.regex(res.body.error.message, /^The type of tool\.bin is not supported; upload PDF, .+ files instead\.$/);
});

/** A document's upload and failure as the log held them before the failure catalogue: a code, and a message in the parser's own words. */
const failedBeforeCatalogue = (id: string, code: string, message: string): GivenEvent[] => [
  { type: 'DocumentUploaded', data: { ...uploadData(id, { knowledge_base_id: 'kb_old', workspace_id: 'default' }), uploaded_at: '2026-01-01T00:00:01.000Z' } },
  { type: 'DocumentFailed', data: { document_id: id, knowledge_base_id: 'kb_old', stage: 'parsing', code, message, failed_at: '2026-01-01T00:00:02.000Z' } },
];

test('old failure events are reported upgraded: a known code keeps it in today’s words, an unknown one gets one from its message, else document_failed', async (t) => {
  const app = await httpSpec(t)
    .given(
      knowledgeBaseCreated({ id: 'kb_old' }),
      ...failedBeforeCatalogue('doc_locked', 'encrypted', 'the PDF is protected by a password'),
      ...failedBeforeCatalogue('doc_bomb', 'zip_bomb', 'The part word/document.xml would unpack to 100 MiB from 200 bytes (a zip bomb).'),
      ...failedBeforeCatalogue('doc_odd', 'gremlins', 'Something unheard of happened.'),
    )
    .app();
  const error = async (id: string) => (await app.call('GET', `/v1/knowledge-bases/kb_old/documents/${id}`)).body.error;
  t.deepEqual(await error('doc_locked'), { stage: 'parsing', code: 'encrypted', message: DOCUMENT_FAILURES.encrypted, detail: 'the PDF is protected by a password' });
  t.deepEqual(await error('doc_bomb'), {
    stage: 'parsing',
    code: 'too_large',
    message: DOCUMENT_FAILURES.too_large,
    detail: 'The part word/document.xml would unpack to 100 MiB from 200 bytes (a zip bomb).',
  });
  t.deepEqual(await error('doc_odd'), { stage: 'parsing', code: 'document_failed', message: DOCUMENT_FAILURES.document_failed, detail: 'Something unheard of happened.' });
  // The knowledge base's feed, replayed from the log, says the same.
  const leaving = new AbortController();
  t.teardown(() => leaving.abort());
  const headers = { authorization: `Bearer ${ADMIN_KEY}`, 'last-event-id': '1' };
  const feed = reader(await fetch(`${app.url}/v1/knowledge-bases/kb_old/documents/events`, { headers, signal: leaving.signal }));
  await feed.until(/event: ready/);
  const failures = [...feed.text().matchAll(/^event: DocumentFailed\ndata: (.*)$/gm)].map((m) => JSON.parse(m[1]!) as { code: string; message: string });
  t.deepEqual(failures.map((f) => [f.code, f.message]), [
    ['encrypted', DOCUMENT_FAILURES.encrypted],
    ['too_large', DOCUMENT_FAILURES.too_large],
    ['document_failed', DOCUMENT_FAILURES.document_failed],
  ]);
});
