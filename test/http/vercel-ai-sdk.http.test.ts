import { createOpenAI } from '@ai-sdk/openai';
import test from 'ava';
import { generateText, streamText, type ToolSet } from 'ai';
import { sampleKnowledgeBase } from '../helpers/knowledge-base.ts';
import { loopbackChatEnv, startChatServer } from '../helpers/provider-servers.ts';
import { ADMIN_KEY, startServer } from '../helpers/server.ts';

// The Vercel AI SDK, unmodified, with its default OpenAI provider call (the Responses API), and the knowledge base as its file_search tool.

const QUESTION = 'How long is a Zephyr-9 blade?';

test('generateText and streamText answer from a knowledge base through the default provider call, with its sources', async (t) => {
  const server = await startServer();
  try {
    const kb = await sampleKnowledgeBase(server);
    const openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: ADMIN_KEY });
    const { body: chat } = await server.call('POST', '/v1/chat/completions', { json: { model: 'kbqa-extractive', knowledge_base_id: kb.kbId, messages: [{ role: 'user', content: QUESTION }] } });
    // `ai` and `@ai-sdk/openai` resolve two patch releases of @ai-sdk/provider-utils, whose schema types differ by a unique symbol: the cast is for the compiler only.
    const tools = { file_search: openai.tools.fileSearch({ vectorStoreIds: [kb.kbId] }) } as unknown as ToolSet;

    const generated = await generateText({ model: openai('kbqa-extractive'), prompt: QUESTION, tools });
    t.is(generated.text, chat.choices[0].message.content, 'chat’s answer');
    t.regex(generated.text, /78 metres/);
    t.true(generated.sources.some((s) => s.sourceType === 'document' && s.title === 'zephyr-9.pdf'), 'the file_citation annotations become sources');
    t.true(generated.usage.totalTokens! > 0);

    const streamed = streamText({ model: openai('kbqa-extractive'), prompt: QUESTION, tools });
    let text = '';
    for await (const piece of streamed.textStream) text += piece;
    t.is(text, chat.choices[0].message.content);
    t.true((await streamed.sources).some((s) => s.sourceType === 'document' && s.title === 'zephyr-9.pdf'));
    t.is(await streamed.finishReason, 'stop');
  } finally {
    await server.close();
  }
});

test('without a tool the default provider call is a plain chat, answering as chat does', async (t) => {
  const server = await startServer();
  try {
    const openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: ADMIN_KEY });
    const messages = [{ role: 'system', content: 'Answer briefly.' }, { role: 'user', content: 'Hello there' }];
    const { body: chat } = await server.call('POST', '/v1/chat/completions', { json: { model: 'kbqa-extractive', messages } });
    const generated = await generateText({ model: openai('kbqa-extractive'), system: 'Answer briefly.', prompt: 'Hello there' });
    t.true(generated.text.length > 0);
    t.is(generated.text, chat.choices[0].message.content);
    t.is(generated.finishReason, 'stop');
    const streamed = streamText({ model: openai('kbqa-extractive'), system: 'Answer briefly.', prompt: 'Hello there' });
    t.is(await streamed.text, generated.text);
  } finally {
    await server.close();
  }
});

test('a conversation sent back to the default provider call finds its earlier answers by item reference', async (t) => {
  const provider = await startChatServer({ respond: (body) => ({ pieces: [`Turn ${(body.messages as unknown[]).length}.`] }) });
  const server = await startServer(loopbackChatEnv(provider.baseUrl));
  try {
    const openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: ADMIN_KEY });
    const first = await generateText({ model: openai('loop-chat'), prompt: 'Hello' });
    t.is(first.text, 'Turn 1.');
    const second = await generateText({ model: openai('loop-chat'), messages: [{ role: 'user', content: 'Hello' }, ...first.response.messages, { role: 'user', content: 'Again?' }] });
    t.is(second.text, 'Turn 3.');
    t.deepEqual(provider.requests[1]!.body.messages, [
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Turn 1.' },
      { role: 'user', content: 'Again?' },
    ]);
  } finally {
    await server.close();
    await provider.close();
  }
});
