import test from 'ava';
import OpenAI from 'openai';
import { sampleKnowledgeBase, type SampleKb } from '../helpers/knowledge-base.ts';
import { loopbackChatEnv, startChatServer } from '../helpers/provider-servers.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';

// The official openai client, unmodified, on the Responses API: a vector store here is a knowledge base.

const QUESTION = 'How long is a Zephyr-9 blade?';

type Citation = { index: number; document_id: string; document_version: number; source: string; quote?: unknown };

const clientOf = (server: TestServer) => new OpenAI({ baseURL: `${server.url}/v1`, apiKey: ADMIN_KEY, maxRetries: 0 });
const fileSearch = (kb: SampleKb) => [{ type: 'file_search' as const, vector_store_ids: [kb.kbId] }];

/** Chat's answer and citations for the same question, the reference the response must equal. */
async function chatAnswer(server: TestServer, kb: SampleKb, input = QUESTION) {
  const { body } = await server.call('POST', '/v1/chat/completions', { json: { model: 'kbqa-extractive', knowledge_base_id: kb.kbId, messages: [{ role: 'user', content: input }] } });
  return { content: body.choices[0].message.content as string, citations: body.citations as Citation[], context: body.context as Citation[] };
}

const markersOf = (text: string, citations: Citation[]) =>
  [...text.matchAll(/\[(\d+)\]/g)].map((m) => {
    const cited = citations.find((c) => c.index === Number(m[1]))!;
    return { type: 'file_citation', index: m.index, file_id: cited.document_id, filename: cited.source, document_version: cited.document_version };
  });

test('file_search over a knowledge base answers as chat does, with a file_citation per marker; the response is stored, continued and deleted', async (t) => {
  const server = await startServer();
  try {
    const kb = await sampleKnowledgeBase(server);
    const client = clientOf(server);
    const reference = await chatAnswer(server, kb);
    const response = await client.responses.create({ model: 'kbqa-extractive', input: QUESTION, tools: fileSearch(kb), include: ['file_search_call.results'] });
    t.regex(response.id, /^resp_/);
    t.is(response.status, 'completed');
    t.is(response.output_text, reference.content, 'the text is chat’s');
    t.regex(response.output_text, /78 metres/);
    const [search, message] = response.output;
    t.is(search?.type, 'file_search_call');
    if (search?.type !== 'file_search_call' || message?.type !== 'message') return t.fail('a search, then a message');
    t.true(search.queries[0]!.includes('Zephyr-9'));
    t.true(search.results!.some((r) => r.file_id === kb.docs.turbine && r.filename === 'zephyr-9.pdf' && r.text?.includes('78 metres')));
    const text = message.content[0]!;
    if (text.type !== 'output_text') return t.fail('output_text');
    t.true(text.annotations.length > 0);
    t.deepEqual(text.annotations, markersOf(reference.content, reference.citations), 'each marker cites chat’s passage');
    t.true(text.annotations.every((a) => a.type === 'file_citation' && a.file_id === kb.docs.turbine));
    t.deepEqual((response as unknown as { citations: Citation[] }).citations, reference.citations, 'citations equal chat’s, quotes and all');
    t.deepEqual((response as unknown as { context: Citation[] }).context, reference.context, 'the context is chat’s: every passage given');
    t.is(search.results!.length, reference.context.length, 'the search results are the context');
    t.true(response.usage!.total_tokens > 0);

    const read = await client.responses.retrieve(response.id);
    t.is(read.output_text, response.output_text);
    t.deepEqual(read.output, response.output);
    const items = await client.responses.inputItems.list(response.id);
    t.deepEqual(items.data.map((i) => i.type === 'message' && i.content[0]), [{ type: 'input_text', text: QUESTION }]);

    const followUp = await client.responses.create({ model: 'kbqa-extractive', input: 'What is it made of?', previous_response_id: response.id, tools: fileSearch(kb) });
    t.is(followUp.previous_response_id, response.id);
    t.regex(followUp.output_text, /glass fibre/, 'the follow-up is read with the earlier question');

    const deleted: unknown = await client.responses.delete(response.id);
    t.deepEqual(deleted, { id: response.id, object: 'response', deleted: true });
    const gone = await t.throwsAsync(client.responses.retrieve(response.id));
    t.is((gone as InstanceType<typeof OpenAI.APIError>).status, 404);
    const cannotContinue = await t.throwsAsync(client.responses.create({ model: 'kbqa-extractive', input: 'And?', previous_response_id: response.id }));
    t.is((cannotContinue as InstanceType<typeof OpenAI.APIError>).status, 404);
  } finally {
    await server.close();
  }
});

test('a streamed response sends OpenAI’s events in order, numbered, and ends with chat’s text and annotations', async (t) => {
  const server = await startServer();
  try {
    const kb = await sampleKnowledgeBase(server);
    const reference = await chatAnswer(server, kb);
    const stream = await clientOf(server).responses.create({ model: 'kbqa-extractive', input: QUESTION, tools: fileSearch(kb), stream: true });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    t.deepEqual(
      events.map((e) => e.sequence_number),
      events.map((_, i) => i),
    );
    const types = [...new Set(events.map((e) => e.type))];
    t.deepEqual(types, [
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.file_search_call.in_progress',
      'response.file_search_call.searching',
      'response.file_search_call.completed',
      'response.output_item.done',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.annotation.added',
      'response.output_text.done',
      'response.content_part.done',
      'response.completed',
    ]);
    const deltas = events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : []));
    t.is(deltas.join(''), reference.content);
    const done = events.find((e) => e.type === 'response.completed');
    if (done?.type !== 'response.completed') return t.fail('completed');
    t.is(done.response.output_text ?? outputText(done.response), reference.content);
    const annotations = events.flatMap((e) => (e.type === 'response.output_text.annotation.added' ? [e.annotation] : []));
    t.deepEqual(annotations, markersOf(reference.content, reference.citations));

    // The stream helper gathers the same events into the final response.
    const helper = clientOf(server).responses.stream({ model: 'kbqa-extractive', input: QUESTION, tools: fileSearch(kb) });
    const final = await helper.finalResponse();
    t.is(final.output_text, reference.content);
    t.is((await clientOf(server).responses.retrieve(final.id)).status, 'completed', 'a streamed response is stored too');
  } finally {
    await server.close();
  }
});

const outputText = (response: OpenAI.Responses.Response) =>
  response.output.flatMap((o) => (o.type === 'message' ? o.content.flatMap((c) => (c.type === 'output_text' ? [c.text] : [])) : [])).join('');

test('the offline model refuses function tools as chat does; store: false keeps nothing; a key that cannot read the knowledge base does not find the response', async (t) => {
  const server = await startServer();
  try {
    const kb = await sampleKnowledgeBase(server);
    const client = clientOf(server);
    const refused = await t.throwsAsync(
      client.responses.create({ model: 'kbqa-extractive', input: QUESTION, tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {} }, strict: false }] }),
    );
    t.is((refused as InstanceType<typeof OpenAI.APIError>).status, 400);
    t.is((refused as InstanceType<typeof OpenAI.APIError>).code, 'unsupported_parameter');
    const jsonRefused = await t.throwsAsync(client.responses.create({ model: 'kbqa-extractive', input: QUESTION, text: { format: { type: 'json_object' } } }));
    t.is((jsonRefused as InstanceType<typeof OpenAI.APIError>).status, 400, 'JSON output is a provider model’s, as on chat');
    t.is((jsonRefused as InstanceType<typeof OpenAI.APIError>).param, 'text.format', 'named as the client sent it');
    const unknownField = await t.throwsAsync(client.responses.create({ model: 'kbqa-extractive', input: QUESTION, colour: 'blue' } as OpenAI.Responses.ResponseCreateParamsNonStreaming));
    t.is((unknownField as InstanceType<typeof OpenAI.APIError>).status, 400);

    const unknownItem = await t.throwsAsync(client.responses.create({ model: 'kbqa-extractive', input: [{ type: 'item_reference', id: 'msg_0nothing' }, { role: 'user', content: QUESTION }] }));
    t.is((unknownItem as InstanceType<typeof OpenAI.APIError>).status, 404);

    const unstored = await client.responses.create({ model: 'kbqa-extractive', input: QUESTION, tools: fileSearch(kb), store: false });
    t.is((unstored as unknown as { store: boolean }).store, false);
    t.is(((await t.throwsAsync(client.responses.retrieve(unstored.id))) as InstanceType<typeof OpenAI.APIError>).status, 404);

    const turns = ['What is Mount Erebus?', 'It is a volcano.', QUESTION];
    const stored = await client.responses.create({
      model: 'kbqa-extractive',
      tools: fileSearch(kb),
      input: turns.map((text, i) => (i === 1 ? { role: 'assistant' as const, content: text } : { role: 'user' as const, content: [{ type: 'input_text' as const, text }] })),
    });
    const textOf = (item: OpenAI.Responses.ResponseItem) => (item.type === 'message' ? (item.content[0] as { text: string }).text : null);
    t.deepEqual((await client.responses.inputItems.list(stored.id)).data.map(textOf), [...turns].reverse(), 'newest first, as OpenAI lists them');
    const firstPage = await client.responses.inputItems.list(stored.id, { order: 'asc', limit: 2 });
    t.deepEqual([firstPage.data.map(textOf), firstPage.has_more], [turns.slice(0, 2), true]);
    const rest = await client.responses.inputItems.list(stored.id, { order: 'asc', after: firstPage.data[1]!.id });
    t.deepEqual([rest.data.map(textOf), rest.has_more], [turns.slice(2), false]);
    const { body: other } = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'other' } });
    const { body: key } = await server.call('POST', '/v1/api-keys', { json: { name: 'narrow', scopes: ['read'], knowledge_base_ids: [other.id] } });
    const narrow = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: key.secret, maxRetries: 0 });
    t.is(((await t.throwsAsync(narrow.responses.retrieve(stored.id))) as InstanceType<typeof OpenAI.APIError>).status, 404);
    t.is(((await t.throwsAsync(narrow.responses.delete(stored.id))) as InstanceType<typeof OpenAI.APIError>).status, 404);
    t.is((await client.responses.retrieve(stored.id)).id, stored.id, 'still there for a key that may read it');
    const followUp = await client.responses.create({ model: 'kbqa-extractive', input: 'Thanks!', previous_response_id: stored.id });
    t.is(((await t.throwsAsync(narrow.responses.retrieve(followUp.id))) as InstanceType<typeof OpenAI.APIError>).status, 404, 'a follow-up holds the knowledge base’s words too');
  } finally {
    await server.close();
  }
});

const weather = { type: 'function' as const, name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, strict: false };

/** Calls the tool until the conversation holds its result, then answers from it. */
const toolThenAnswer = (body: Record<string, unknown>) => {
  const messages = body.messages as { role: string; content: string | null }[];
  const result = messages.find((m) => m.role === 'tool');
  if (result) return { pieces: [`It is ${result.content} `, 'in Oslo.'] };
  return { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }] };
};

test('a provider model’s function calls come back as function_call items, and their output continues the response', async (t) => {
  const provider = await startChatServer({ respond: toolThenAnswer });
  const server = await startServer(loopbackChatEnv(provider.baseUrl));
  try {
    const client = clientOf(server);
    const format = { type: 'json_schema' as const, name: 'weather', schema: { type: 'object', properties: { celsius: { type: 'number' } } }, strict: true };
    const first = await client.responses.create({
      model: 'loop-chat',
      input: 'Weather in Oslo?',
      instructions: 'Be brief.',
      tools: [weather],
      tool_choice: { type: 'function', name: 'get_weather' },
      text: { format },
      reasoning: { effort: 'low' },
    });
    const call = first.output.find((o) => o.type === 'function_call');
    if (call?.type !== 'function_call') return t.fail('a function_call item');
    t.deepEqual([call.call_id, call.name, JSON.parse(call.arguments)], ['call_1', 'get_weather', { city: 'Oslo' }]);
    const sent = provider.requests[0]!.body as { tools: unknown; tool_choice: unknown; response_format: unknown; reasoning_effort: unknown; messages: { role: string; content: string }[] };
    t.deepEqual(sent.response_format, { type: 'json_schema', json_schema: { name: 'weather', schema: format.schema, strict: true } }, 'text.format as chat’s response_format');
    t.is(sent.reasoning_effort, 'low');
    t.deepEqual(sent.tools, [{ type: 'function', function: { name: 'get_weather', description: weather.description, parameters: weather.parameters, strict: false } }]);
    t.deepEqual(sent.tool_choice, { type: 'function', function: { name: 'get_weather' } });
    t.deepEqual(sent.messages[0], { role: 'system', content: 'Be brief.' });

    const second = await client.responses.create({ model: 'loop-chat', previous_response_id: first.id, tools: [weather], input: [{ type: 'function_call_output', call_id: call.call_id, output: '12 °C' }] });
    t.is(second.output_text, 'It is 12 °C in Oslo.');
    const history = (provider.requests[1]!.body as { messages: { role: string }[] }).messages;
    t.deepEqual(history.map((m) => m.role), ['user', 'assistant', 'tool'], 'the stored turn and the call’s output, without the earlier instructions');

    const streamed = await client.responses.stream({ model: 'loop-chat', input: 'Weather in Oslo?', tools: [weather] }).finalResponse();
    t.deepEqual(
      streamed.output.map((o) => o.type === 'function_call' && [o.call_id, o.name, o.arguments]),
      [['call_1', 'get_weather', '{"city":"Oslo"}']],
    );
  } finally {
    await server.close();
    await provider.close();
  }
});

test('a response continues a server-side conversation: its items go before the input, and the turn is added to it', async (t) => {
  const server = await startServer();
  try {
    const kb = await sampleKnowledgeBase(server);
    const client = clientOf(server);
    const conversation = await client.conversations.create({});
    const first = await client.responses.create({ model: 'kbqa-extractive', input: QUESTION, tools: fileSearch(kb), conversation: conversation.id });
    t.regex(first.output_text, /78 metres/);
    const followUp = await client.responses.create({ model: 'kbqa-extractive', input: 'What is it made of?', tools: fileSearch(kb), conversation: conversation.id });
    t.regex(followUp.output_text, /glass fibre/, 'the follow-up is read with the conversation’s history');
    const items = await client.conversations.items.list(conversation.id, { order: 'asc' });
    const texts = items.data.map((i) => (i.type === 'message' ? i.content.map((c) => ('text' in c ? c.text : '')).join('') : ''));
    t.is(texts.length, 4, JSON.stringify(texts));
    t.deepEqual([texts[0], texts[2]], [QUESTION, 'What is it made of?']);
    t.is(texts[3], followUp.output_text);
    const both = await t.throwsAsync(client.responses.create({ model: 'kbqa-extractive', input: 'And?', conversation: conversation.id, previous_response_id: first.id }));
    t.is((both as InstanceType<typeof OpenAI.APIError>).param, 'conversation');
  } finally {
    await server.close();
  }
});
