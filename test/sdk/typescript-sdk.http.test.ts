import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import {
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  DocumentFailedError,
  Kbqa,
  NotFoundError,
  type Document,
  type ServerEvent,
  type UploadProgress,
} from '../../sdk/typescript/src/index.ts';
import { fileFromPath } from '../../sdk/typescript/src/node.ts';
import { FACTS, turbinePdf } from '../helpers/knowledge-base.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';
import { tempDir } from '../helpers/temp.ts';

/**
 * The SDK against the real app (in-process, random port, fresh data dir); each step builds on the
 * one before. How it meets rate limits, 5xx answers and errors mid-stream: typescript-sdk-failures.http.test.ts.
 */
let server: TestServer;
let kbqa: Kbqa;
const dir = tempDir('kbqa-sdk-');
const state = { kbId: '', docs: {} as Record<string, Document>, workflowId: '' };

test.before(async () => {
  server = await startServer();
  // No `/v1`: the client appends it.
  kbqa = new Kbqa({ baseUrl: server.url, apiKey: ADMIN_KEY });
});
test.after.always(async () => {
  await server?.close();
  dir.remove();
});

test.serial('upload text and files, waiting for ready with progress', async (t) => {
  const kb = await kbqa.knowledgeBases.create({ name: 'Handbook' });
  state.kbId = kb.id;
  const textProgress: UploadProgress[] = [];
  const erebus = await kbqa.documents.uploadText(
    kb.id,
    { name: 'erebus.md', text: `# Mount Erebus\n\n${FACTS.volcano}\n\n## Lava lake\n\n${FACTS.lake}` },
    { metadata: { topic: 'geology' }, wait: true, onProgress: (p) => textProgress.push(p) },
  );
  t.like(erebus, { name: 'erebus.md', status: 'ready', page_count: 1, metadata: { topic: 'geology' } });
  // The stream opens with the document as it stands, then follows it: the statuses from there on, in order.
  const statuses = [...new Set(textProgress.map((p) => p.status))];
  t.deepEqual(statuses, ['queued', 'parsing', 'indexing', 'ready'].slice(-statuses.length));
  t.is(textProgress[0]!.event, 'document');
  t.like(textProgress.at(-1), { document_id: erebus.id, name: 'erebus.md', status: 'ready', settled: 1, total: 1 });

  const sourdough = join(dir.path, 'sourdough.txt');
  writeFileSync(sourdough, `${FACTS.bread}\n\n${FACTS.starter}`);
  const progress: UploadProgress[] = [];
  const docs = await kbqa.documents.upload(
    kb.id,
    [{ name: 'zephyr-9.pdf', data: await turbinePdf(), type: 'application/pdf' }, await fileFromPath(sourdough, 'sourdough (crème).txt')],
    { metadata: { lang: 'en' }, chunking: { max_tokens: 256 }, wait: true, onProgress: (p) => progress.push(p) },
  );
  t.deepEqual(docs.map((d) => [d.name, d.status]), [['zephyr-9.pdf', 'ready'], ['sourdough (crème).txt', 'ready']]);
  t.is(docs[0]!.page_count, 2);
  t.true(progress.some((p) => p.document_id === docs[0]!.id && p.page_count === 2));
  t.true(progress.some((p) => p.event === 'progress' && typeof p.chunks_indexed === 'number'), 'index progress is reported');
  t.is(progress.at(-1)!.settled, 2);
  t.is(Math.max(...progress.map((p) => p.settled)), 2);
  state.docs = { erebus, zephyr: docs[0]!, sourdough: docs[1]! };

  // Without waiting: as it stands once recorded (queued, unless a worker took it at once), and waitUntilReady settles it later.
  const queued = await kbqa.documents.uploadText(kb.id, { name: 'notes.txt', text: 'Scratch notes that will be deleted.' });
  t.true(['queued', 'parsing', 'indexing', 'ready'].includes(queued.status), queued.status);
  const [settled] = await kbqa.documents.waitUntilReady(kb.id, queued.id);
  t.is(settled!.status, 'ready');
  t.is((await kbqa.documents.list(kb.id, { status: 'ready', limit: 10 })).data.length, 4);
  t.is((await kbqa.documents.get(kb.id, erebus.id)).chunk_count, erebus.chunk_count);
  const chunks = await kbqa.documents.chunks(kb.id, docs[0]!.id);
  t.true(chunks.data.some((c) => c.page === 2 && c.paragraph.includes('78 metres')));
  const events: string[] = [];
  for await (const e of kbqa.documents.events(kb.id, erebus.id)) events.push(e.event);
  t.deepEqual(events, ['document'], 'a ready document: its state, and the stream ends');
  t.like(await kbqa.documents.delete(kb.id, queued.id), { id: queued.id, deleted: true });
});

test.serial('a document that fails is a DocumentFailedError carrying it', async (t) => {
  const error = await t.throwsAsync(kbqa.documents.upload(state.kbId, { name: 'blank.txt', data: ' \n\n ' }, { wait: true }), { instanceOf: DocumentFailedError });
  t.like(error.failed[0], { name: 'blank.txt', status: 'failed', error: { code: 'empty' } });
});

test.serial('search: passages with source, page and scores', async (t) => {
  const result = await kbqa.search(state.kbId, 'How long is a Zephyr-9 blade?', { topK: 3, explain: true, filter: { metadata: { lang: 'en' } } });
  t.like(result, { object: 'list', knowledge_base_id: state.kbId });
  t.like(result.data[0], { source: 'zephyr-9.pdf', page: 2, document_id: state.docs.zephyr!.id });
  t.true(result.data.every((r) => r.document_id !== state.docs.erebus!.id), 'the metadata filter leaves out erebus.md');
  t.is(typeof result.data[0]!.scores!.keyword, 'number');
  const bare = await kbqa.search(state.kbId, 'How long is a Zephyr-9 blade?', { topK: 3, include: ['scores'], filter: { metadata: { lang: 'en' } } });
  t.deepEqual(bare.data.map((r) => r.chunk_id), result.data.map((r) => r.chunk_id));
  t.is(bare.data[0]!.paragraph, undefined);
  t.is(typeof bare.data[0]!.scores!.keyword, 'number');
});

test.serial('query: the answer with citations {source, page, text}', async (t) => {
  const result = await kbqa.query(state.kbId, 'How long is a Zephyr-9 blade?');
  t.regex(result.answer, /78 metres long/);
  t.regex(result.answer, /\[1\]/);
  t.like(result.citations[0], { index: 1, source: 'zephyr-9.pdf', page: 2 });
  t.true(result.citations[0]!.text.includes(FACTS.blades));
  t.false('paragraph' in result.citations[0]!);
  t.is(result.answerable, true);
  const { quote, text, char_start, char_end, boxes, chunk_id } = result.citations[0]!;
  t.is(text.slice(quote!.start, quote!.end), quote!.text);
  t.is(char_end - char_start, quote!.end - quote!.start, 'the quoted span, counted in the page text');
  t.true(boxes.length > 0 && boxes.every((b) => b.x0 < b.x1 && b.y0 < b.y1), 'a PDF citation locates its lines');
  // The citations are what the answer's markers name; every passage the model was given is the context, as retrieved.
  const markers = [...new Set([...result.answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].sort();
  t.deepEqual(result.citations.map((c) => c.index).sort(), markers);
  t.true(result.context.length > result.citations.length, `${result.context.length} passages given, ${result.citations.length} cited`);
  t.like(result.context.find((p) => p.index === 1), { chunk_id, source: 'zephyr-9.pdf', page: 2 });
  t.true(result.context.every((p) => !('quote' in p) && !('paragraph' in p) && p.text.length > 0 && p.char_end - p.char_start === p.text.length));
  const png = await kbqa.documents.pageImage(state.kbId, result.citations[0]!.document_id, 2, { highlight: chunk_id, char_start, char_end, width: 300 });
  t.deepEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')]);
  t.is(Buffer.from(png).readUInt32BE(16), 300, 'the width asked for');
  const offTopic = await kbqa.query(state.kbId, 'Who won the 1998 FIFA World Cup final?');
  t.deepEqual([offTopic.answerable, offTopic.citations, offTopic.context], [false, [], []]);
  const followUp = await kbqa.query(state.kbId, 'What is it made of?', {
    history: [
      { role: 'user', content: 'How long is a Zephyr-9 blade?' },
      { role: 'assistant', content: result.answer },
    ],
  });
  t.regex(followUp.answer, /glass fibre/);
});

test.serial('several knowledge bases: search and query take an array of ids and a filter in the grammar', async (t) => {
  const polar = await kbqa.knowledgeBases.create({ name: 'Polar' });
  const text = 'The Ross Ice Shelf in Antarctica is several hundred metres thick and floats on the Ross Sea.';
  const [shelf] = await kbqa.documents.upload(polar.id, { name: 'shelf.md', data: `# Ross Ice Shelf\n\n${text}` }, { metadata: { topic: 'geology', year: 2021 }, wait: true });
  const both = await kbqa.search([state.kbId, polar.id], 'Antarctica Ross Island Ross Ice Shelf', { topK: 10 });
  t.deepEqual(both.knowledge_base_ids, [state.kbId, polar.id]);
  t.like(both.data.find((r) => r.document_id === shelf!.id), { knowledge_base_id: polar.id });
  t.like(both.data.find((r) => r.document_id === state.docs.erebus!.id), { knowledge_base_id: state.kbId });
  const filtered = await kbqa.search([state.kbId, polar.id], 'Antarctica Ross Island Ross Ice Shelf', {
    topK: 10,
    filter: { type: 'and', filters: [{ type: 'eq', key: 'topic', value: 'geology' }, { type: 'gt', key: 'year', value: 2020 }] },
  });
  t.deepEqual([...new Set(filtered.data.map((r) => r.document_id))], [shelf!.id]);
  const answer = await kbqa.query([state.kbId, polar.id], 'What is in Antarctica near Ross Island?');
  t.deepEqual([...new Set(answer.citations.filter((c) => c.quote).map((c) => c.knowledge_base_id))].sort(), [state.kbId, polar.id].sort());
  const narrowed = await kbqa.chat.create({
    messages: [{ role: 'user', content: 'How thick is the Ross Ice Shelf?' }],
    knowledgeBaseIds: [state.kbId, polar.id],
    filter: { type: 'in', key: 'year', value: [2021] },
  });
  t.deepEqual(narrowed.knowledge_base_ids, [state.kbId, polar.id]);
  t.true(narrowed.citations.length > 0 && narrowed.citations.every((c) => c.document_id === shelf!.id), narrowed.content);
  const stream = kbqa.chat.stream({ messages: [{ role: 'user', content: 'How thick is the Ross Ice Shelf?' }], knowledgeBaseIds: [state.kbId, polar.id] });
  const first = (await stream.next()).value as { knowledge_base_ids?: string[]; knowledge_base_id?: string | null };
  await stream.return(undefined);
  t.like(first, { knowledge_base_id: state.kbId, knowledge_base_ids: [state.kbId, polar.id] });
  await kbqa.knowledgeBases.delete(polar.id);
});

test.serial('chat: one answer, and the same answer streamed through an async iterator', async (t) => {
  const messages = [{ role: 'user' as const, content: 'When has the lava lake of Mount Erebus been active since?' }];
  const whole = await kbqa.chat.create({ messages, knowledgeBaseId: state.kbId });
  t.regex(whole.content, /1972/);
  t.like(whole, { finish_reason: 'stop', knowledge_base_id: state.kbId });
  t.is(whole.citations[0]!.source, 'erebus.md');

  const chunks = [];
  for await (const chunk of kbqa.chat.stream({ messages, knowledgeBaseId: state.kbId, includeUsage: true })) chunks.push(chunk);
  // The first chunk carries the context as retrieved; the one with the finish reason, the citations with their quotes.
  t.true(whole.context.length >= whole.citations.length && whole.citations.length > 0);
  t.deepEqual(chunks[0]!.context, whole.context);
  t.is(chunks[0]!.citations, undefined);
  t.deepEqual(chunks.find((c) => c.finish_reason)!.citations, whole.citations);
  t.true(chunks.slice(1).every((c) => c.context === undefined));
  t.true(chunks.filter((c) => c.content !== '').length > 1, 'several content deltas');
  t.is(chunks.map((c) => c.content).join(''), whole.content);
  t.true(chunks.some((c) => c.finish_reason === 'stop'));
  t.true((chunks.at(-1)!.usage?.total_tokens ?? 0) > 0);

  // Leaving the loop early closes the stream; so does the caller's AbortSignal; the client keeps working.
  for await (const chunk of kbqa.chat.stream({ messages, knowledgeBaseId: state.kbId })) if (chunk.content) break;
  const aborter = new AbortController();
  await t.throwsAsync(
    async () => {
      for await (const chunk of kbqa.chat.stream({ messages, knowledgeBaseId: state.kbId, signal: aborter.signal })) if (chunk.content) aborter.abort();
    },
    { instanceOf: APIUserAbortError },
  );
  t.truthy((await kbqa.models.list()).data.length);
});

test.serial('runWorkflow: blocking, async then fetched, streaming with node events', async (t) => {
  const wf = await kbqa.workflows.create({ name: 'QA', template: 'knowledge-qa', knowledge_base_id: state.kbId });
  state.workflowId = wf.id;
  t.true((await kbqa.workflows.list()).data.some((w) => w.id === wf.id));
  t.is((await kbqa.workflows.get(wf.id)).version, 1);
  const question = 'How long is a Zephyr-9 blade?';

  const blocking = await kbqa.runWorkflow(wf.id, { question }, { mode: 'blocking' });
  t.like(blocking, { object: 'workflow_run', workflow_id: wf.id, status: 'succeeded', inputs: { question } });
  t.regex(String(blocking.outputs!.answer), /78 metres/);
  t.is(blocking.outputs!.citations![0]!.source, 'zephyr-9.pdf');

  const queued = await kbqa.runWorkflow(wf.id, { question }, { mode: 'async' });
  const fetched = await kbqa.workflows.waitForRun(queued.id);
  t.is(fetched.status, 'succeeded');
  t.deepEqual(fetched.outputs, blocking.outputs);
  t.is((await kbqa.workflows.getRun(queued.id)).id, queued.id);

  const events: ServerEvent[] = [];
  const streamed = await kbqa.runWorkflow(wf.id, { question }, { mode: 'streaming', onEvent: (e) => events.push(e) });
  t.is(streamed.status, 'succeeded');
  t.deepEqual(streamed.outputs, blocking.outputs);
  t.true(events.some((e) => e.event === 'NodeRunSucceeded' && e.data.node_id === 'llm'));

  const bad = await t.throwsAsync(kbqa.runWorkflow(wf.id, {}), { instanceOf: BadRequestError });
  t.is(bad.param, 'inputs.question');
  const replaced = await kbqa.workflows.update(wf.id, { name: 'QA 2', graph: wf.graph });
  t.is(replaced.version, 2);
});

test.serial('errors: a bad key and an unknown knowledge base, typed and carrying the API error body', async (t) => {
  const stranger = new Kbqa({ baseUrl: `${server.url}/v1/`, apiKey: 'kbqa-not-a-real-key', maxRetries: 0 });
  const denied = await t.throwsAsync(stranger.query(state.kbId, 'Anything?'), { instanceOf: AuthenticationError });
  t.is(denied.status, 401);
  t.deepEqual(denied.error, { message: 'Incorrect API key provided.', type: 'authentication_error', param: null, code: 'invalid_api_key' });
  t.truthy(denied.requestId);

  const missing = await t.throwsAsync(kbqa.query('kb_does_not_exist', 'Anything?'), { instanceOf: NotFoundError });
  t.like(missing, { status: 404, code: 'knowledge_base_not_found', type: 'not_found_error' });
  await t.throwsAsync(kbqa.search('kb_does_not_exist', 'x'), { instanceOf: NotFoundError });
  const streamMissing = kbqa.chat.stream({ messages: [{ role: 'user', content: 'x' }], knowledgeBaseId: 'kb_does_not_exist' });
  await t.throwsAsync(streamMissing.next(), { instanceOf: NotFoundError });
  const invalid = await t.throwsAsync(kbqa.chat.create({ messages: [{ role: 'user', content: 'x' }], temperature: 3 }), { instanceOf: BadRequestError });
  t.is(invalid.param, 'temperature');
  t.is((await t.throwsAsync(kbqa.models.get('no-such-model'), { instanceOf: NotFoundError })).code, 'model_not_found');
});
