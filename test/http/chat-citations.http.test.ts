import test from 'ava';
import OpenAI from 'openai';
import { settledDocument } from '../helpers/documents.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';

// issue 43 item 11: `citations` are the passages the answer cites; every passage the model was given is `context`.

type Passage = { index: number; source: string; page: number; paragraph: string; chunk_id: string; score: number; quote?: { text: string } | null };
type Grounded = { citations: Passage[]; context: Passage[] };

let server: TestServer;
let kbId: string;
let client: OpenAI;

/** Five documents on one machine, each holding one fact: a question about one retrieves all five. */
const SHEETS = {
  'power.txt': 'The Zephyr-9 wind turbine produces 4.2 megawatts of power at a wind speed of 12 metres per second.',
  'blades.txt': 'Each Zephyr-9 wind turbine blade is 78 metres long and made of glass fibre reinforced epoxy.',
  'tower.txt': 'The Zephyr-9 wind turbine stands on a steel tower 120 metres tall, bolted to a concrete foundation.',
  // Retrieval ranks this one first (the question's words), but it holds no height: the answer cites the tower's [n], not [1].
  'drawings.txt': 'Drawings of the tower of the Zephyr-9 wind turbine: how the tower is built, and the tower of the Zephyr-9 in section.',
  'price.txt': 'A complete Zephyr-9 wind turbine costs 3.1 million euros, installation included.',
};
/** A follow-up: retrieval reads the first question's words too, so the drawings rank [1] and the tower's sheet [2]. */
const MESSAGES = [
  { role: 'user', content: 'Tell me about the power and wind speed of the Zephyr-9 wind turbine.' },
  { role: 'assistant', content: 'It makes 4.2 megawatts.' },
  { role: 'user', content: 'How tall is its tower?' },
] as OpenAI.ChatCompletionMessageParam[];

test.before(async () => {
  server = await startServer();
  const { body: kb } = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'zephyr sheets', settings: { top_k: 5, score_threshold: 0 } } });
  kbId = kb.id;
  for (const [name, text] of Object.entries(SHEETS)) {
    const { body } = await server.call('POST', `/v1/knowledge-bases/${kbId}/documents`, { json: { name, text } });
    await settledDocument(server, kbId, body.data[0].id);
  }
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: ADMIN_KEY, maxRetries: 0 });
});
test.after.always(() => server?.close());

const markersOf = (text: string) => [...new Set([...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].sort();

/** One citation per marker, each the context passage of its number with a quote: nothing more, nothing renumbered. */
function citesAsMarked(t: import('ava').ExecutionContext, answer: string, body: Grounded) {
  t.is(body.context.length, 5, 'every passage the model was given');
  t.deepEqual(
    body.context.map((p) => p.index),
    [1, 2, 3, 4, 5],
  );
  t.true(body.context.every((p) => !('quote' in p)), 'context is as retrieved, before any answer');
  t.deepEqual(markersOf(answer), [body.citations[0]!.index]);
  t.is(body.citations.length, 1, JSON.stringify(body.citations));
  const [cited] = body.citations;
  const passage = body.context.find((p) => p.index === cited!.index)!;
  t.is(cited!.chunk_id, passage.chunk_id);
  t.is(cited!.source, 'tower.txt');
  t.is(cited!.index, 2, 'the tower’s sheet was passage [2]: its citation keeps that number');
  t.true(cited!.quote!.text.includes('120 metres'));
}

test('a chat citing one passage of five: one citation (its marker its index), five context passages', async (t) => {
  const completion = (await client.chat.completions.create({ model: 'kbqa-extractive', messages: MESSAGES, knowledge_base_id: kbId } as never)) as OpenAI.ChatCompletion & Grounded;
  const answer = completion.choices[0]!.message.content!;
  t.true(answer.includes('120 metres'), answer);
  citesAsMarked(t, answer, completion);
});

test('/v1/chat answers the same: citations the answer cites, context beside them', async (t) => {
  const { status, body } = await server.call('POST', '/v1/chat', { json: { model: 'kbqa-extractive', knowledge_base_id: kbId, messages: MESSAGES } });
  t.is(status, 200);
  citesAsMarked(t, body.content, body);
});

test('streamed: the first chunk carries the context, the finishing one the citations, through the official client', async (t) => {
  const stream = await client.chat.completions.create({
    model: 'kbqa-extractive',
    messages: MESSAGES,
    knowledge_base_id: kbId,
    stream: true,
  } as never as OpenAI.ChatCompletionCreateParamsStreaming);
  const chunks: (OpenAI.ChatCompletionChunk & Partial<Grounded>)[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  const finishing = chunks.findIndex((c) => c.choices[0]?.finish_reason);
  t.is(chunks[0]!.context?.length, 5);
  t.is(chunks[0]!.citations, undefined, 'nothing is cited before the answer is written');
  t.true(
    chunks.every((c, i) => (c.context === undefined || i === 0) && (c.citations === undefined || i === finishing)),
    'context first, citations with the finish reason, nowhere else',
  );
  const answer = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
  citesAsMarked(t, answer, { context: chunks[0]!.context!, citations: chunks[finishing]!.citations! });
  const plain = (await client.chat.completions.create({ model: 'kbqa-extractive', messages: MESSAGES, knowledge_base_id: kbId } as never)) as OpenAI.ChatCompletion & Grounded;
  t.deepEqual(plain.citations, chunks[finishing]!.citations);
  t.deepEqual(plain.context, chunks[0]!.context);
});

test('not covered: no citations and an empty context, streamed or not', async (t) => {
  const { body: strict } = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'strict', settings: { score_threshold: 0.95 } } });
  const question = { model: 'kbqa-extractive', knowledge_base_id: strict.id, messages: [{ role: 'user', content: 'What is the population of Ulaanbaatar?' }] };
  const { body } = await server.call('POST', '/v1/chat/completions', { json: question });
  t.regex(body.choices[0].message.content, /does not cover/);
  t.deepEqual([body.citations, body.context, body.answerable], [[], [], false]);
  const streamed = await server.call('POST', '/v1/chat/completions', { json: { ...question, stream: true } });
  const chunks = String(streamed.body)
    .split('\n')
    .filter((l) => l.startsWith('data: {'))
    .map((l) => JSON.parse(l.slice(6)));
  t.deepEqual(chunks[0].context, []);
  t.deepEqual(chunks.find((c) => c.choices[0]?.finish_reason).citations, []);
});

test('without a knowledge base: no citations, no context', async (t) => {
  const completion = (await client.chat.completions.create({ model: 'kbqa-extractive', messages: [{ role: 'user', content: 'Hello there' }] })) as OpenAI.ChatCompletion & Grounded;
  t.deepEqual([completion.citations, completion.context], [[], []]);
});

