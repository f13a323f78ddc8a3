import anyTest, { type TestFn } from 'ava';
import { allChunks, settledDocument, uploadFiles } from '../helpers/documents.ts';
import { OCR_SAMPLES, samplePage } from '../helpers/ocr-pages.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

/** `ocr.languages`: set on a knowledge base, overridden per upload, checked at the edge, recorded with the upload and read with. */

const test = anyTest as TestFn<{ server: TestServer }>;
test.before(async (t) => {
  t.context.server = await startServer();
});
test.after.always((t) => t.context.server?.close());

const kbWith = async (server: TestServer, settings: object) => server.call('POST', '/v1/knowledge-bases', { json: { name: 'Scans', settings } });
const textOf = async (server: TestServer, kb: string, id: string) => {
  const done = await settledDocument(server, kb, id, 120_000);
  if (done.status !== 'ready') throw new Error(JSON.stringify(done.error));
  return (await allChunks(server, kb, id)).map((c) => c.paragraph).join(' ');
};

test.serial('unknown languages are refused with 400 naming the field, on the knowledge base and on the upload', async (t) => {
  const { server } = t.context;
  const bad = await kbWith(server, { ocr: { languages: ['deu', 'klingon'] } });
  t.is(bad.status, 400);
  t.is(bad.body.error.param, 'settings.ocr.languages.1');
  t.regex(bad.body.error.message, /OCR languages/);
  const kb = (await kbWith(server, {})).body.id;
  const upload = await uploadFiles(server, kb, [{ name: 'x.png', bytes: samplePage(['x']).png }], { ocr_languages: 'de,xx' });
  t.is(upload.status, 400);
  t.is(upload.body.error.param, 'ocr_languages.1');
});

test.serial("the knowledge base's languages read its scans, an upload's override them, and the upload records the models", async (t) => {
  const { server } = t.context;
  const created = await kbWith(server, { ocr: { languages: ['de'] } });
  t.is(created.status, 201);
  t.deepEqual(created.body.settings.ocr, { languages: ['de'] });
  const kb = created.body.id;
  const german = await uploadFiles(server, kb, [{ name: 'de.png', bytes: samplePage(OCR_SAMPLES.deu).png }]);
  t.is(german.status, 202);
  const text = await textOf(server, kb, german.body.data[0].id);
  t.regex(text, /Die Größe der Straße überrascht müde Bürger täglich\./);
  const french = await uploadFiles(server, kb, [{ name: 'fr.png', bytes: samplePage(OCR_SAMPLES.fra).png }], { ocr_languages: 'fra, eng' });
  t.regex(await textOf(server, kb, french.body.data[0].id), /Le garçon a été très ému par la fenêtre brisée\./);
  const [uploaded] = await server.runtime.store.readStream(`document-${french.body.data[0].id}`);
  t.deepEqual((uploaded!.data as { ocr_languages?: string[] }).ocr_languages, ['fra', 'eng']);
  const cleared = await server.call('PATCH', `/v1/knowledge-bases/${kb}`, { json: { settings: { ocr: { languages: null } } } });
  t.is(cleared.status, 200);
  t.deepEqual(cleared.body.settings.ocr, { languages: null });
});
