import test from 'ava';
import OpenAI from 'openai';
import { sampleKnowledgeBase } from '../helpers/knowledge-base.ts';
import { loopbackChatEnv, startChatServer } from '../helpers/provider-servers.ts';
import { ADMIN_KEY, startServer } from '../helpers/server.ts';

// The official openai client, unmodified, against the in-process server; provider models answer from a loopback provider.

const weatherTool: OpenAI.ChatCompletionTool = {
  type: 'function',
  function: { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

/** Calls the tool until the conversation holds its result, then answers from it. */
const toolThenAnswer = (body: Record<string, unknown>) => {
  const messages = body.messages as { role: string; content: string | null }[];
  const result = messages.find((m) => m.role === 'tool');
  if (result) return { pieces: [`It is ${result.content} `, 'in Oslo.'] };
  return { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }] };
};

test('tools reach a provider model and its tool calls come back in OpenAI’s shape, with the knowledge base still in the prompt', async (t) => {
  const provider = await startChatServer({ respond: toolThenAnswer });
  const server = await startServer(loopbackChatEnv(provider.baseUrl));
  try {
    const kb = await sampleKnowledgeBase(server);
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: ADMIN_KEY, maxRetries: 0 });
    const ask = { role: 'user' as const, content: 'How long is a Zephyr-9 blade, and what is the weather in Oslo?' };
    const first = await client.chat.completions.create({
      model: 'loop-chat',
      messages: [ask],
      tools: [weatherTool],
      tool_choice: 'auto',
      parallel_tool_calls: false,
      seed: 7,
      stop: ['\n\n'],
      logprobs: true,
      top_logprobs: 2,
      reasoning_effort: 'low',
      metadata: { team: 'qa' },
      store: false,
      knowledge_base_id: kb.kbId,
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const choice = first.choices[0]!;
    t.is(choice.finish_reason, 'tool_calls');
    t.is(choice.message.content, null);
    t.deepEqual(choice.message.tool_calls, [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }]);
    t.deepEqual((first as unknown as { citations: unknown[] }).citations, [], 'a tool call cites nothing');
    const sent = provider.requests[0]!.body as Record<string, unknown> & { messages: { role: string; content: string }[] };
    t.deepEqual(sent.tools, [weatherTool]);
    t.is(sent.tool_choice, 'auto');
    t.is(sent.parallel_tool_calls, false);
    t.is(sent.seed, 7);
    t.deepEqual(sent.stop, ['\n\n']);
    t.deepEqual([sent.logprobs, sent.top_logprobs, sent.reasoning_effort], [true, 2, 'low']);
    t.false('metadata' in sent || 'store' in sent, 'what a provider would store stays here');
    t.is(sent.messages[0]!.role, 'system');
    t.true(sent.messages[0]!.content.includes('78 metres'), 'the knowledge base context is still injected');

    // The history as the client sends it back: the assistant's call (content null) and the tool's result.
    const second = await client.chat.completions.create({
      model: 'loop-chat',
      messages: [ask, choice.message, { role: 'tool', tool_call_id: 'call_1', content: '12 °C' }],
      tools: [weatherTool],
      logprobs: true,
    });
    t.deepEqual(second.choices[0]!.logprobs?.content?.map((l) => l.token), ['It is 12 °C ', 'in Oslo.'], 'the provider’s logprobs come back');
    t.is(second.choices[0]!.message.content, 'It is 12 °C in Oslo.');
    t.is(second.choices[0]!.finish_reason, 'stop');
    t.deepEqual((second as unknown as { citations: unknown[] }).citations, [], 'an answer that cites no passage has no citations');
    const history = (provider.requests[1]!.body as { messages: { role: string }[] }).messages.filter((m) => m.role !== 'system');
    t.deepEqual(history, [
      ask,
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
      { role: 'tool', content: '12 °C', tool_call_id: 'call_1' },
    ]);
  } finally {
    await server.close();
    await provider.close();
  }
});

test('with tools, a question the knowledge base does not cover still goes to the model, which may call a tool', async (t) => {
  const provider = await startChatServer({ respond: toolThenAnswer });
  const server = await startServer(loopbackChatEnv(provider.baseUrl));
  try {
    const kb = await sampleKnowledgeBase(server);
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: ADMIN_KEY, maxRetries: 0 });
    const body = { model: 'loop-chat', messages: [{ role: 'user', content: 'What is the weather in Oslo?' }], knowledge_base_id: kb.kbId };
    const withTools = await client.chat.completions.create({ ...body, tools: [weatherTool] } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    t.is(withTools.choices[0]!.finish_reason, 'tool_calls');
    const without = await client.chat.completions.create(body as OpenAI.ChatCompletionCreateParamsNonStreaming);
    t.regex(without.choices[0]!.message.content!, /does not cover/);
    t.is(provider.requests.length, 1, 'without tools the fixed answer needs no model');
  } finally {
    await server.close();
    await provider.close();
  }
});

test('streamed tool calls arrive as OpenAI’s deltas, which the client puts back together', async (t) => {
  const provider = await startChatServer({ respond: toolThenAnswer });
  const server = await startServer(loopbackChatEnv(provider.baseUrl));
  try {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: ADMIN_KEY, maxRetries: 0 });
    const stream = client.chat.completions.stream({ model: 'loop-chat', messages: [{ role: 'user', content: 'Weather in Oslo?' }], tools: [weatherTool], stream_options: { include_usage: true } });
    const deltas: OpenAI.ChatCompletionChunk.Choice.Delta.ToolCall[] = [];
    stream.on('chunk', (chunk) => deltas.push(...(chunk.choices[0]?.delta.tool_calls ?? [])));
    const final = await stream.finalChatCompletion();
    t.true(deltas.length >= 3, 'the call came in pieces');
    t.is(final.choices[0]!.finish_reason, 'tool_calls');
    t.deepEqual(final.choices[0]!.message.tool_calls?.map((c) => c.type === 'function' && [c.id, c.function.name, JSON.parse(c.function.arguments)]), [['call_1', 'get_weather', { city: 'Oslo' }]]);
    t.deepEqual(final.usage, { prompt_tokens: 11, completion_tokens: 4, total_tokens: 15 });
    t.true((provider.requests[0]!.body as { stream: boolean }).stream);
  } finally {
    await server.close();
    await provider.close();
  }
});

test('the offline model refuses, by name, only the fields that change the answer’s contract, and ignores the rest', async (t) => {
  const server = await startServer();
  try {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: ADMIN_KEY, maxRetries: 0 });
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Say something.' }];
    const refused = async (extra: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming>, param: string) => {
      const error = await t.throwsAsync(client.chat.completions.create({ model: 'kbqa-extractive', messages, ...extra }), { instanceOf: OpenAI.BadRequestError });
      t.is(error.code, 'unsupported_parameter');
      t.is(error.param, param);
    };
    await refused({ tools: [weatherTool] }, 'tools');
    await refused({ response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' } } } }, 'response_format');
    await refused({ tool_choice: 'required' }, 'tool_choice');
    await refused({ n: 2 }, 'n');
    const answer = await client.chat.completions.create({
      model: 'kbqa-extractive',
      messages: [...messages, { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'c', content: 'done' }, { role: 'user', content: 'And now?' }],
      tools: [],
      tool_choice: 'none',
      parallel_tool_calls: true,
      response_format: { type: 'text' },
      logprobs: true,
      top_logprobs: 2,
      metadata: { a: 'b' },
      store: true,
      reasoning_effort: 'low',
      service_tier: 'auto',
      modalities: ['text'],
      seed: 1,
      n: 1,
      prompt_cache_key: 'k',
      safety_identifier: 'u1',
      verbosity: 'low',
    });
    t.is(answer.choices[0]!.finish_reason, 'stop');
    t.is(typeof answer.choices[0]!.message.content, 'string');
  } finally {
    await server.close();
  }
});
