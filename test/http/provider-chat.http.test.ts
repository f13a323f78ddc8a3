import test from 'ava';
import OpenAI from 'openai';
import { sampleKnowledgeBase } from '../helpers/knowledge-base.ts';
import { loopbackChatEnv, startChatServer, startRerankServer } from '../helpers/provider-servers.ts';
import { ADMIN_KEY, startServer } from '../helpers/server.ts';

test('a provider model is listed and streams through, grounded in the knowledge base', async (t) => {
  const provider = await startChatServer({ pieces: ['Blades ', 'are ', '78 metres ', 'long [1].'] });
  const server = await startServer(loopbackChatEnv(provider.baseUrl));
  try {
    const kb = await sampleKnowledgeBase(server);
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: ADMIN_KEY, maxRetries: 0 });
    const ids = (await client.models.list()).data.map((m) => m.id);
    t.true(ids.includes('loop-chat'));
    const stream = await client.chat.completions.create({
      model: 'loop-chat',
      messages: [{ role: 'user', content: 'How long is a Zephyr-9 blade?' }],
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      knowledge_base_id: kb.kbId,
    } as never as OpenAI.ChatCompletionCreateParamsStreaming);
    const chunks: (OpenAI.ChatCompletionChunk & { context?: { source: string }[] })[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    t.is(chunks[0]!.context![0]!.source, 'zephyr-9.pdf');
    t.is(chunks.map((c) => c.choices[0]?.delta.content ?? '').join(''), 'Blades are 78 metres long [1].');
    t.deepEqual(chunks.at(-1)!.usage, { prompt_tokens: 11, completion_tokens: 4, total_tokens: 15 });
    // The provider got our grounded prompt: the passages first, then the client's conversation.
    const sent = provider.requests[0]!.body as { model: string; temperature: number; messages: { role: string; content: string }[] };
    t.is(sent.model, 'loop-chat');
    t.is(sent.temperature, 0.2);
    t.is(sent.messages[0]!.role, 'system');
    t.true(sent.messages[0]!.content.includes('78 metres'));
    t.deepEqual(sent.messages.at(-1), { role: 'user', content: 'How long is a Zephyr-9 blade?' });
  } finally {
    await server.close();
    await provider.close();
  }
});

test('a client that disconnects mid-stream stops the provider’s generation', async (t) => {
  const provider = await startChatServer({ pieces: Array.from({ length: 50 }, (_, i) => `word${i} `), chunkDelayMs: 100 });
  const server = await startServer(loopbackChatEnv(provider.baseUrl));
  try {
    const aborter = new AbortController();
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'loop-chat', stream: true, messages: [{ role: 'user', content: 'talk' }] }),
      signal: aborter.signal,
    });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('word1 ')) text += new TextDecoder().decode((await reader.read()).value);
    aborter.abort();
    await provider.untilDisconnects(1);
    t.is(provider.disconnects, 1);
    t.is(provider.requests.length, 1);
  } finally {
    await server.close();
    await provider.close();
  }
});

test('provider failures come back in our error shape', async (t) => {
  const provider = await startChatServer({ failFirst: 100 });
  const server = await startServer(loopbackChatEnv(provider.baseUrl));
  try {
    const { status, body, headers } = await server.call('POST', '/v1/chat/completions', { json: { model: 'loop-chat', messages: [{ role: 'user', content: 'hi' }] } });
    t.is(status, 429);
    t.is(body.error.code, 'provider_rate_limited');
    t.is(body.error.type, 'rate_limit_error');
    t.truthy(headers.get('retry-after'));
    // Streaming: the headers are out before the provider answers, so the failure is an error event.
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'loop-chat', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const events = await res.text();
    t.regex(events, /event: error\ndata: \{"error":\{"message":"[^"]+","type":"rate_limit_error","param":null,"code":"provider_rate_limited"\}/);
    t.false(events.includes('[DONE]'));
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: ADMIN_KEY, maxRetries: 0 });
    await t.throwsAsync(async () => {
      const stream = await client.chat.completions.create({ model: 'loop-chat', stream: true, messages: [{ role: 'user', content: 'hi' }] });
      for await (const _ of stream);
    });
  } finally {
    await server.close();
    await provider.close();
  }
});

test('a Cohere/Jina-style rerank endpoint serves knowledge bases that choose it', async (t) => {
  const reranker = await startRerankServer();
  const server = await startServer({ KBQA_RERANK_URL: reranker.baseUrl, KBQA_RERANK_MODELS: 'loop-rerank', KBQA_OPENAI_MAX_RETRIES: '0' });
  try {
    const kb = await sampleKnowledgeBase(server, { rerank: { enabled: true, model: 'loop-rerank' } });
    const models = await server.call('GET', '/v1/models');
    t.true(models.body.data.some((m: { id: string }) => m.id === 'loop-rerank'));
    const { body } = await server.call('POST', `/v1/knowledge-bases/${kb.kbId}/search`, { json: { query: 'zephyr-9 blade length', explain: true } });
    t.true(body.rerank);
    t.is(body.data[0].document_id, kb.docs.turbine);
    t.is(body.data[0].score, body.data[0].scores.rerank);
    t.is(reranker.requests.at(-1)!.body.model, 'loop-rerank');
    t.is(reranker.requests.at(-1)!.body.query, 'zephyr-9 blade length');
  } finally {
    await server.close();
    await reranker.close();
  }
});
