import test from 'ava';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';
import { sampleKnowledgeBase } from '../helpers/knowledge-base.ts';
import { loopbackChatEnv, startChatServer } from '../helpers/provider-servers.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';

// LangChain JS's ChatOpenAI, unmodified, against the in-process server and a provider model behind a loopback provider.

const Blade = z.object({ length_m: z.number().describe('Blade length in metres'), material: z.string() });
const bladeJson = JSON.stringify({ length_m: 78, material: 'glass fibre reinforced epoxy' });

/** What a provider does with LangChain's requests: JSON for a JSON schema, a call for a named or offered tool. */
function provider(body: Record<string, unknown>) {
  const format = body.response_format as { type: string } | undefined;
  if (format?.type === 'json_schema') return { pieces: [bladeJson.slice(0, 10), bladeJson.slice(10)] };
  const tools = (body.tools as { function: { name: string } }[] | undefined) ?? [];
  if (tools[0]?.function.name === 'blade') return { toolCalls: [{ id: 'call_b', name: 'blade', arguments: bladeJson }] };
  if (tools.length > 0) return { toolCalls: [{ id: 'call_w', name: tools[0]!.function.name, arguments: '{"city":"Oslo"}' }] };
  return { pieces: ['plain'] };
}

const chatModel = (server: TestServer, kbId?: string) =>
  new ChatOpenAI({ model: 'loop-chat', apiKey: ADMIN_KEY, maxRetries: 0, configuration: { baseURL: `${server.url}/v1` }, ...(kbId && { modelKwargs: { knowledge_base_id: kbId } }) });

const getWeather = tool(async ({ city }) => `12 °C in ${city}`, { name: 'get_weather', description: 'The weather in a city', schema: z.object({ city: z.string() }) });

test('bindTools: the tool reaches the provider and its call comes back as LangChain tool_calls, blocking and streamed', async (t) => {
  const loop = await startChatServer({ respond: provider });
  const server = await startServer(loopbackChatEnv(loop.baseUrl));
  try {
    const kb = await sampleKnowledgeBase(server);
    const withTools = chatModel(server, kb.kbId).bindTools([getWeather]);
    const message = await withTools.invoke('How long is a Zephyr-9 blade, and what is the weather in Oslo?');
    t.deepEqual(message.tool_calls?.map((c) => [c.name, c.args, c.id]), [['get_weather', { city: 'Oslo' }, 'call_w']]);
    const sent = loop.requests[0]!.body as { tools: { function: { name: string; parameters: { properties: object } } }[]; messages: { role: string; content: string }[] };
    t.is(sent.tools[0]!.function.name, 'get_weather');
    t.deepEqual(Object.keys(sent.tools[0]!.function.parameters.properties), ['city']);
    t.true(sent.messages[0]!.content.includes('78 metres'), 'the knowledge base is still in the prompt');

    let streamed: Awaited<ReturnType<typeof withTools.invoke>> | undefined;
    for await (const chunk of await withTools.stream('Weather in Oslo?')) streamed = streamed ? streamed.concat(chunk) : chunk;
    t.deepEqual(streamed?.tool_calls?.map((c) => [c.name, c.args]), [['get_weather', { city: 'Oslo' }]]);

    // The history LangChain sends back: the AI message with its call, and the tool's answer.
    const result = await getWeather.invoke(message.tool_calls![0]!);
    await withTools.invoke([['human', 'What is the weather in Oslo?'], message, result]);
    const history = (loop.requests.at(-1)!.body as { messages: { role: string; content: unknown; tool_call_id?: string; tool_calls?: { id: string }[] }[] }).messages;
    const [, assistant, toolResult] = history.filter((m) => m.role !== 'system');
    t.is(assistant!.role, 'assistant');
    t.deepEqual(assistant!.tool_calls?.map((c) => c.id), ['call_w']);
    t.deepEqual([toolResult!.role, toolResult!.tool_call_id, toolResult!.content], ['tool', 'call_w', '12 °C in Oslo']);
  } finally {
    await server.close();
    await loop.close();
  }
});

test('withStructuredOutput: a JSON schema (the default) and function calling both come back parsed', async (t) => {
  const loop = await startChatServer({ respond: provider });
  const server = await startServer(loopbackChatEnv(loop.baseUrl));
  try {
    const kb = await sampleKnowledgeBase(server);
    const asked = 'How long is a Zephyr-9 blade and what is it made of?';
    const bySchema = await chatModel(server, kb.kbId).withStructuredOutput(Blade, { name: 'blade' }).invoke(asked);
    t.deepEqual(bySchema, { length_m: 78, material: 'glass fibre reinforced epoxy' });
    const schemaRequest = loop.requests.at(-1)!.body as { response_format: { type: string; json_schema: { name: string; schema: { properties: object } } } };
    t.is(schemaRequest.response_format.type, 'json_schema');
    t.deepEqual(Object.keys(schemaRequest.response_format.json_schema.schema.properties), ['length_m', 'material']);

    const byCall = await chatModel(server, kb.kbId).withStructuredOutput(Blade, { name: 'blade', method: 'functionCalling' }).invoke(asked);
    t.deepEqual(byCall, { length_m: 78, material: 'glass fibre reinforced epoxy' });
    const callRequest = loop.requests.at(-1)!.body as { tool_choice: unknown };
    t.deepEqual(callRequest.tool_choice, { type: 'function', function: { name: 'blade' } });
  } finally {
    await server.close();
    await loop.close();
  }
});

test('the offline model answers LangChain’s structured output with unsupported_parameter, naming the field', async (t) => {
  const server = await startServer();
  try {
    const offline = new ChatOpenAI({ model: 'kbqa-extractive', apiKey: ADMIN_KEY, maxRetries: 0, configuration: { baseURL: `${server.url}/v1` } });
    const error = await t.throwsAsync(offline.withStructuredOutput(Blade, { name: 'blade' }).invoke('Blade?'));
    t.regex(error.message, /response_format/);
    t.regex(error.message, /400/);
    const plain = await offline.invoke('Hello?');
    t.is(typeof plain.content, 'string');
  } finally {
    await server.close();
  }
});
