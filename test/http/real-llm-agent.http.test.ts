import test from 'ava';
import { settledDocument } from '../helpers/documents.ts';
import { connectLlm, type RealLlm, startServerForLlm, withRealLlm } from '../helpers/real-llm.ts';
import type { TestServer } from '../helpers/server.ts';

type Json = Record<string, any>;

/** An agent whose model is the real server's (npm run llm:up): its chat in the API and on its public landing page, blocking and streamed. */
withRealLlm(test, 'an agent on a real LLM server', (llm: RealLlm) => {
  let server: TestServer;
  let agentId: string;
  let slug: string;

  test.before(async () => {
    server = await startServerForLlm();
    const { model } = await connectLlm(server, llm);
    const kb = (await server.call('POST', '/v1/knowledge-bases', { json: { name: 'harbour' } })).body.id;
    const upload = await server.call('POST', `/v1/knowledge-bases/${kb}/documents`, { json: { name: 'ferry.md', text: 'The harbour ferry leaves at seven every evening.' } });
    if ((await settledDocument(server, kb, upload.body.data[0].id)).status !== 'ready') throw new Error('the fixture document did not index');
    const agent = await server.call('POST', '/v1/agents', {
      json: { name: 'Harbour guide', model, instructions: 'Answer in one short sentence.', knowledge_base_ids: [kb] },
    });
    if (agent.status !== 201) throw new Error(JSON.stringify(agent.body));
    agentId = agent.body.id;
    slug = ((await server.call('POST', `/v1/agents/${agentId}/publish`)).body.public_url as string).slice('/a/'.length);
  });
  test.after.always(() => server?.close());

  const question = { messages: [{ role: 'user', content: 'When does the harbour ferry leave?' }] };

  test.serial('the agent answers /v1/chat/completions with the real model, grounded in its knowledge base', async (t) => {
    const answer = await server.call('POST', '/v1/chat/completions', { json: { model: agentId, temperature: 0, max_tokens: 32, ...question } });
    t.is(answer.status, 200, JSON.stringify(answer.body));
    t.true(answer.body.choices[0].message.content.length > 0);
    t.true(answer.body.context.some((c: Json) => c.paragraph.includes('seven every evening')), 'the passage was in the prompt');
    t.true(answer.body.usage.completion_tokens <= 32, 'the request’s max_tokens reached the server');
  });

  test.serial('its landing page chats with a visitor, blocking and streamed, with public citations only', async (t) => {
    const page = await server.call('POST', `/a/${slug}/chat`, { key: null, json: question });
    t.is(page.status, 200, JSON.stringify(page.body));
    t.true((page.body.choices[0].message.content as string).length > 0);
    t.false('context' in page.body, 'a visitor sees the sources of the answer, not the retrieval');

    const streamed = await server.call('POST', `/a/${slug}/chat`, { key: null, json: { ...question, stream: true } });
    t.is(streamed.status, 200);
    const chunks = String(streamed.body)
      .split('\n')
      .filter((l) => l.startsWith('data: {'))
      .map((l) => JSON.parse(l.slice(6)));
    t.true(chunks.map((c) => c.choices[0].delta.content ?? '').join('').length > 0);
    const last = chunks.at(-1);
    t.truthy(last.choices[0].finish_reason);
    t.true(Array.isArray(last.citations));
    for (const c of last.citations) t.false('knowledge_base_id' in c);
  });
});
