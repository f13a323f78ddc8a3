import anyTest, { type TestFn } from 'ava';
import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import { allChunks, settledDocument, uploadFiles } from '../helpers/documents.ts';
import { reader } from '../helpers/event-stream.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const test = anyTest as TestFn<{ server: TestServer; kb: string }>;
test.before(async (t) => {
  t.context.server = await startServer({ KBQA_MAX_UPLOAD_MB: '1' });
  t.context.kb = (await t.context.server.call('POST', '/v1/knowledge-bases', { json: { name: 'Docs', settings: { chunking: { max_tokens: 64, overlap_tokens: 8 } } } })).body.id;
});
test.after.always((t) => t.context.server?.close());

const MARKDOWN = `# Solar power\n\nPhotovoltaic cells convert sunlight into electricity. Efficiency has risen for decades.\n\n## Storage\n\nLithium batteries store the surplus for the night.\n`;

test.serial('JSON text upload: 202 queued, then ready with chunks that know their page and headings', async (t) => {
  const { call } = t.context.server;
  const res = await call('POST', `/v1/knowledge-bases/${t.context.kb}/documents`, {
    json: { name: 'solar.md', text: MARKDOWN, metadata: { team: 'energy', year: 2024 } },
  });
  t.is(res.status, 202);
  t.is(res.body.object, 'list');
  const doc = res.body.data[0];
  t.like(doc, { object: 'document', name: 'solar.md', knowledge_base_id: t.context.kb, metadata: { team: 'energy', year: 2024 } });
  t.true(['queued', 'parsing', 'indexing', 'ready'].includes(doc.status));
  const done = await settledDocument(t.context.server, t.context.kb, doc.id);
  t.like(done, { status: 'ready', media_type: 'text/markdown', page_count: 1, error: null });
  t.true(done.chunk_count >= 2);
  t.true(done.timings.parse_ms >= 0 && done.timings.index_ms >= 0);
  const chunks = await allChunks(t.context.server, t.context.kb, doc.id);
  t.is(chunks.length, done.chunk_count);
  const storage = chunks.find((c) => c.paragraph.includes('Lithium batteries'));
  t.deepEqual(storage.heading_path, ['Solar power', 'Storage']);
  t.is(storage.page, 1);
  t.is(storage.source, 'solar.md');
  const kb = (await call('GET', `/v1/knowledge-bases/${t.context.kb}`)).body;
  t.true(kb.document_count >= 1);
  t.true(kb.chunk_count >= done.chunk_count);
});

test.serial('multipart: several files at once, types decided by bytes, per-upload chunking', async (t) => {
  const docx = await Packer.toBuffer(
    new Document({
      sections: [{ children: [new Paragraph({ text: 'Quarterly report', heading: HeadingLevel.HEADING_1 }), new Paragraph('Revenue grew in the western region.')] }],
    }),
  );
  const csv = 'Region,Sales\nWest,12\nEast,7\n';
  const res = await uploadFiles(t.context.server, t.context.kb, [
    { name: 'report.docx', bytes: docx },
    { name: 'sales.csv', bytes: csv },
    { name: 'notes.txt', bytes: 'Plain notes about the western region.' },
  ], { chunking: JSON.stringify({ max_tokens: 128, overlap_tokens: 0 }) });
  t.is(res.status, 202);
  t.is(res.body.data.length, 3);
  const done = await Promise.all(res.body.data.map((d: any) => settledDocument(t.context.server, t.context.kb, d.id)));
  t.deepEqual(done.map((d) => [d.status, d.media_type]), [
    ['ready', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['ready', 'text/csv'],
    ['ready', 'text/plain'],
  ]);
  const csvChunks = await allChunks(t.context.server, t.context.kb, done[1].id);
  t.true(csvChunks.some((c) => c.paragraph.includes('Region: West; Sales: 12')));
  const docxChunks = await allChunks(t.context.server, t.context.kb, done[0].id);
  t.true(docxChunks.some((c) => c.heading_path.includes('Quarterly report') && c.paragraph.includes('western region')));
});

test.serial('the same bytes in the same knowledge base give back the existing document', async (t) => {
  const first = await uploadFiles(t.context.server, t.context.kb, [{ name: 'a.txt', bytes: 'Identical content, uploaded twice.' }]);
  const second = await uploadFiles(t.context.server, t.context.kb, [{ name: 'renamed.txt', bytes: 'Identical content, uploaded twice.' }]);
  t.is(second.status, 202);
  t.is(second.body.data[0].id, first.body.data[0].id);
  t.is(second.body.data[0].name, 'a.txt');
  // Said so: the file was not added anew, the answer is the document that holds its bytes.
  t.is(first.body.data[0].deduplicated, undefined);
  t.is(second.body.data[0].deduplicated, true);
});

test.serial('Idempotency-Key: a retry returns the first result; the key with another body is refused', async (t) => {
  const headers = { 'idempotency-key': 'upload-42' };
  const a = await uploadFiles(t.context.server, t.context.kb, [{ name: 'i.txt', bytes: 'Idempotent upload body one.' }], {}, { headers });
  const b = await uploadFiles(t.context.server, t.context.kb, [{ name: 'i.txt', bytes: 'Idempotent upload body one.' }], {}, { headers });
  t.is(a.status, 202);
  t.deepEqual(b.body.data.map((d: any) => d.id), a.body.data.map((d: any) => d.id));
  const c = await uploadFiles(t.context.server, t.context.kb, [{ name: 'i.txt', bytes: 'A different body.' }], {}, { headers });
  t.is(c.status, 400);
  t.is(c.body.error.code, 'idempotency_key_reused');
  t.is(c.body.error.param, 'Idempotency-Key');
});

test.serial('delete takes the document out of the list, its chunks and the knowledge base counts', async (t) => {
  const { call, runtime } = t.context.server;
  const up = await uploadFiles(t.context.server, t.context.kb, [{ name: 'gone.txt', bytes: 'Zebras graze on the savanna at dawn.' }]);
  const doc = await settledDocument(t.context.server, t.context.kb, up.body.data[0].id);
  t.true((await runtime.indexes.keywords.query(t.context.kb, 'zebras savanna', 10)).some((m) => m.documentId === doc.id));
  const before = (await call('GET', `/v1/knowledge-bases/${t.context.kb}`)).body;
  const del = await call('DELETE', `/v1/knowledge-bases/${t.context.kb}/documents/${doc.id}`);
  t.deepEqual(del.body, { id: doc.id, object: 'document.deleted', deleted: true });
  t.is((await call('GET', `/v1/knowledge-bases/${t.context.kb}/documents/${doc.id}`)).status, 404);
  const after = (await call('GET', `/v1/knowledge-bases/${t.context.kb}`)).body;
  t.is(after.document_count, before.document_count - 1);
  t.is(after.chunk_count, before.chunk_count - doc.chunk_count);
  const deadline = Date.now() + 5000;
  while ((await runtime.indexes.keywords.query(t.context.kb, 'zebras savanna', 10)).some((m) => m.documentId === doc.id) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
  }
  t.false((await runtime.indexes.keywords.query(t.context.kb, 'zebras savanna', 10)).some((m) => m.documentId === doc.id));
  t.is(await runtime.indexes.vectors.count(t.context.kb), await runtime.indexes.keywords.count(t.context.kb));
  const again = await uploadFiles(t.context.server, t.context.kb, [{ name: 'gone.txt', bytes: 'Zebras graze on the savanna at dawn.' }]);
  t.not(again.body.data[0].id, doc.id, 'deleted content can come back as a new document');
});

/** The lifecycle events that follow a document in each status, in order. */
const AFTER: Record<string, string[]> = {
  // Chunk batches travel in their own stream (document_chunks-…): the document's feed tells its lifecycle.
  queued: ['DocumentParsingStarted', 'DocumentParsed', 'DocumentIndexed'],
  parsing: ['DocumentParsed', 'DocumentIndexed'],
  indexing: ['DocumentIndexed'],
  ready: [],
};

const documentEvents = async (t: { context: { server: TestServer; kb: string } }, id: string, signal?: AbortSignal) =>
  fetch(`${t.context.server.url}/v1/knowledge-bases/${t.context.kb}/documents/${id}/events`, { headers: { authorization: 'Bearer test-admin-key-0123456789abcdef' }, signal });

test.serial('server-sent events: the document as it stands, then its lifecycle live to ready, then the stream ends', async (t) => {
  const up = await uploadFiles(t.context.server, t.context.kb, [{ name: 'sse.md', bytes: MARKDOWN.replace('Solar', 'Wind') }]);
  const id = up.body.data[0].id;
  const res = await documentEvents(t, id);
  t.is(res.headers.get('content-type'), 'text/event-stream; charset=utf-8');
  const text = await res.text();
  const events = [...text.matchAll(/^event: (\w+)\ndata: (.*)$/gm)].map((m) => ({ event: m[1]!, data: JSON.parse(m[2]!) }));
  // The read model's document first, exactly as GET answers it at that moment.
  t.is(events[0]!.event, 'document');
  t.like(events[0]!.data, { id, object: 'document', name: 'sse.md', knowledge_base_id: t.context.kb });
  const lifecycle = events.slice(1).filter((e) => e.event !== 'progress');
  t.deepEqual(lifecycle.map((e) => e.event), AFTER[events[0]!.data.status]);
  t.true(lifecycle.every((e) => typeof e.data.revision === 'number'));
  t.notRegex(text, /"chunks":/, 'chunk payloads are summarised');
  // A document already ready: its state, and the stream ends at once.
  const again = await (await documentEvents(t, id)).text();
  t.deepEqual([...again.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]), ['document']);
  t.regex(again, /"status":"ready"/);
});

test.serial('server-sent events: after the read model’s document, only newer feed events; a client that leaves releases its subscription', async (t) => {
  const { runtime } = t.context.server;
  // A document stuck in parsing at log position 10: the read model is all the stream reads.
  const up = await uploadFiles(t.context.server, t.context.kb, [{ name: 'stuck.md', bytes: 'A document whose parse never ends.' }]);
  const real = await settledDocument(t.context.server, t.context.kb, up.body.data[0].id);
  const stored = (await runtime.readModels.get<Record<string, unknown>>('documents', real.id))!;
  const id = `${real.id}stuck`;
  await runtime.readModels.commit([{ op: 'put', collection: 'documents', id, doc: { ...stored, id, status: 'parsing' }, position: 10n }]);

  const feed = runtime.feed;
  const subscribe = feed.subscribe;
  let open = 0;
  feed.subscribe = (key, listener) => {
    open++;
    const unsubscribe = subscribe(key, listener);
    return () => (open--, unsubscribe());
  };
  try {
    const leaving = new AbortController();
    const stream = reader(await documentEvents(t, id, leaving.signal));
    await stream.until(/^event: document\ndata: .*"status":"parsing"/m);
    t.is(open, 1);
    feed.publish(id, { event: 'DocumentParsingStarted', data: { revision: 1 }, position: 9n });
    feed.publish(id, { event: 'progress', data: { stage: 'parsing', pages_parsed: 1, page_count: 2 } });
    feed.publish(id, { event: 'DocumentParsed', data: { revision: 3 }, position: 12n });
    await stream.until(/event: DocumentParsed/);
    t.deepEqual([...stream.text().matchAll(/^event: (\w+)$/gm)].map((m) => m[1]), ['document', 'progress', 'DocumentParsed'], 'what the document already has is skipped');
    leaving.abort();
    for (let i = 0; open > 0 && i < 200; i++) await new Promise((r) => setTimeout(r, 10));
    t.is(open, 0, 'the subscription is released when the client leaves');

    // Until the end: a terminal event closes the stream and unsubscribes.
    const following = reader(await documentEvents(t, id));
    await following.until(/event: document/);
    feed.publish(id, { event: 'DocumentIndexed', data: { revision: 4 }, position: 13n });
    await t.throwsAsync(following.until(/never/), { message: /the stream ended/ });
    t.regex(following.text(), /event: DocumentIndexed/);
    t.is(open, 0);
  } finally {
    feed.subscribe = subscribe;
  }
});

test.serial('list filters by status and pages', async (t) => {
  const { call } = t.context.server;
  const ready = await call('GET', `/v1/knowledge-bases/${t.context.kb}/documents?status=ready&limit=2`);
  t.is(ready.status, 200);
  t.true(ready.body.data.every((d: any) => d.status === 'ready'));
  t.is(ready.body.data.length, 2);
  t.true(ready.body.has_more);
});

test.serial('bad uploads: 415 for an unsupported type, 413 over the size limit, 400 naming the field; nothing queued', async (t) => {
  const { call, head } = t.context.server;
  const before = await head();
  const binary = await uploadFiles(t.context.server, t.context.kb, [{ name: 'x.bin', bytes: Buffer.from([0, 1, 2, 3, 0, 0, 255, 254, 0, 7, 0, 0]) }]);
  t.is(binary.status, 415);
  t.is(binary.body.error.code, 'unsupported_media_type');
  t.regex(binary.body.error.message, /x\.bin/);
  // Every format a parser reads is named, the older binary Office ones too.
  for (const format of ['PDF', '.docx', '.doc', '.xlsx', '.xls', '.pptx', 'EPUB', '.eml', 'CSV', 'Markdown', 'HTML', 'TIFF']) t.true(binary.body.error.message.includes(format), format);
  const mixed = await uploadFiles(t.context.server, t.context.kb, [{ name: 'ok.txt', bytes: 'fine text' }, { name: 'y.bin', bytes: Buffer.alloc(64, 0) }]);
  t.is(mixed.status, 415, 'one bad file refuses the whole upload');
  const big = await uploadFiles(t.context.server, t.context.kb, [{ name: 'big.txt', bytes: 'a'.repeat(1024 * 1024 + 10) }]);
  t.is(big.status, 413);
  t.is(big.body.error.code, 'request_too_large');
  const badMeta = await uploadFiles(t.context.server, t.context.kb, [{ name: 'm.txt', bytes: 'meta' }], { metadata: '{"nested":{"no":1}}' });
  t.is(badMeta.status, 400);
  t.is(badMeta.body.error.param, 'metadata.nested');
  const notJson = await uploadFiles(t.context.server, t.context.kb, [{ name: 'm.txt', bytes: 'meta' }], { chunking: 'big' });
  t.is(notJson.status, 400);
  t.is(notJson.body.error.param, 'chunking');
  const badChunking = await call('POST', `/v1/knowledge-bases/${t.context.kb}/documents`, { json: { name: 'c.txt', text: 'x', chunking: { max_tokens: 64, overlap_tokens: 64 } } });
  t.is(badChunking.body.error.param, 'chunking.overlap_tokens');
  const noFile = await uploadFiles(t.context.server, t.context.kb, [], { metadata: '{}' });
  t.is(noFile.status, 400);
  t.is(noFile.body.error.param, 'file');
  const unknown = await uploadFiles(t.context.server, t.context.kb, [{ name: 'u.txt', bytes: 'u' }], { colour: 'red' });
  t.is(unknown.body.error.param, 'colour');
  const missingKb = await call('POST', '/v1/knowledge-bases/kb_nope/documents', { json: { name: 'a.txt', text: 'a' } });
  t.is(missingKb.status, 404);
  const nul = await call('POST', `/v1/knowledge-bases/${t.context.kb}/documents`, { json: { name: 'n.txt', text: 'before\u0000after' } });
  t.is(nul.status, 400, 'text with U+0000 is refused at upload, not failed later as unsupported_type');
  t.is(nul.body.error.param, 'text');
  t.regex(nul.body.error.message, /U\+0000/);
  t.is(await head(), before);
});

test.serial('a hostile file fails its own document with a code; the server and other documents carry on', async (t) => {
  const res = await uploadFiles(t.context.server, t.context.kb, [
    { name: 'blank.txt', bytes: ' \n\n ' },
    { name: 'fine.txt', bytes: 'A perfectly fine document about otters.' },
  ]);
  t.is(res.status, 202);
  const [empty, fine] = await Promise.all(res.body.data.map((d: any) => settledDocument(t.context.server, t.context.kb, d.id)));
  t.like(empty, { status: 'failed', error: { stage: 'parsing', code: 'empty' } });
  t.is(fine.status, 'ready');
  t.is((await t.context.server.call('GET', '/healthz', { key: null })).status, 200);
});

test('a multipart file name in raw UTF-8, as curl, browsers and FormData send it, keeps its accents', async (t) => {
  const res = await uploadFiles(t.context.server, t.context.kb, [{ name: 'café crème.txt', bytes: 'Espresso with steamed milk.', type: 'text/plain' }]);
  t.is(res.status, 202);
  t.is(res.body.data[0].name, 'café crème.txt');
});
