import test from 'ava';
import { chatEvents, connectLlm, type RealLlm, SHORT, startServerForLlm, withRealLlm } from '../helpers/real-llm.ts';
import type { TestServer } from '../helpers/server.ts';

/**
 * Chat through a workspace provider pointed at a real llama.cpp server (npm run llm:up), as
 * docs/model-providers.md connects one: the connection check, discovery, chat completions blocking
 * and streamed, what the provider reports (usage, finish reasons) and what is recorded.
 */
withRealLlm(test, 'chat against a real LLM server', (llm: RealLlm) => {
  let server: TestServer;
  let model: string;
  let providerId: string;

  test.before(async () => {
    server = await startServerForLlm();
    ({ id: providerId, model } = await connectLlm(server, llm));
  });
  test.after.always(() => server?.close());

  const dataLines = (sse: string) =>
    sse
      .split('\n')
      .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
      .map((line) => JSON.parse(line.slice('data: '.length)));

  test.serial('the provider’s test and discover ask the real server’s /models', async (t) => {
    const checked = await server.call('POST', `/v1/model-providers/${providerId}/test`);
    t.is(checked.status, 200);
    t.true(checked.body.ok, JSON.stringify(checked.body));
    const found = await server.call('POST', `/v1/model-providers/${providerId}/discover`);
    t.is(found.status, 200, JSON.stringify(found.body));
    t.true(found.body.data.some((m: { id: string }) => m.id === llm.modelId), JSON.stringify(found.body));
    const listed = await server.call('GET', '/v1/models');
    t.true(listed.body.data.some((m: { id: string; owned_by: string }) => m.id === model && m.owned_by === 'llamacpp'));
  });

  test.serial('a blocking chat completion: the model’s text, the server’s usage, finish reason `length` at max_tokens, recorded once', async (t) => {
    const answer = await server.call('POST', '/v1/chat/completions', {
      json: { model, ...SHORT, max_tokens: 8, messages: [{ role: 'user', content: 'Write a long story about a cat.' }] },
    });
    t.is(answer.status, 200, JSON.stringify(answer.body));
    t.is(answer.body.model, model);
    const [choice] = answer.body.choices;
    t.is(choice.message.role, 'assistant');
    t.true(choice.message.content.length > 0);
    // Eight tokens cannot finish a long story: the server says `length`, and we pass it on.
    t.is(choice.finish_reason, 'length');
    t.is(answer.body.usage.completion_tokens, 8, 'the server’s own count, not our estimate');
    t.true(answer.body.usage.prompt_tokens > 5);
    t.is(answer.body.usage.total_tokens, answer.body.usage.prompt_tokens + 8);

    const events = await chatEvents(server, answer.body.id);
    t.is(events.length, 1);
    t.like(events[0]!.data, { model, finish_reason: 'length', stream: false, answer: choice.message.content, usage: answer.body.usage });
  });

  test.serial('a short question ends with `stop` before max_tokens', async (t) => {
    const answer = await server.call('POST', '/v1/chat/completions', {
      json: { model, temperature: 0, max_tokens: 64, messages: [{ role: 'user', content: 'Reply with one word: hello.' }] },
    });
    t.is(answer.status, 200, JSON.stringify(answer.body));
    t.is(answer.body.choices[0].finish_reason, 'stop', JSON.stringify(answer.body.choices[0]));
    t.true(answer.body.usage.completion_tokens < 64);
  });

  test.serial('a streamed chat completion: OpenAI’s chunks, one finish reason, usage (estimated: this server streams none), recorded once', async (t) => {
    const streamed = await server.call('POST', '/v1/chat/completions', {
      json: { model, ...SHORT, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Name three colours.' }] },
    });
    t.is(streamed.status, 200);
    t.regex(streamed.headers.get('content-type') ?? '', /text\/event-stream/);
    t.true(String(streamed.body).trimEnd().endsWith('data: [DONE]'));
    const chunks = dataLines(String(streamed.body));
    t.true(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === model && c.id === chunks[0].id));
    const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
    t.true(text.length > 0);
    const finishes = chunks.flatMap((c) => (c.choices[0]?.finish_reason ? [c.choices[0].finish_reason] : []));
    t.is(finishes.length, 1);
    t.true(['stop', 'length'].includes(finishes[0]));
    // llama-cpp-python ignores stream_options.include_usage: the counts are our estimate, never zero.
    const usage = chunks.at(-1).usage;
    t.true(usage.prompt_tokens > 0 && usage.completion_tokens > 0, JSON.stringify(usage));

    const events = await chatEvents(server, chunks[0].id);
    t.is(events.length, 1);
    t.like(events[0]!.data, { stream: true, answer: text, usage, finish_reason: finishes[0] });
  });

  test.serial('/v1/responses answers through the same provider', async (t) => {
    const response = await server.call('POST', '/v1/responses', { json: { model, temperature: 0, max_output_tokens: 24, input: 'Say hello.' } });
    t.is(response.status, 200, JSON.stringify(response.body));
    t.is(response.body.model, model);
    // An answer cut at max_output_tokens is `incomplete`, as OpenAI says it; one the model ended is `completed`.
    if (response.body.usage.output_tokens >= 24) t.like(response.body, { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    else t.is(response.body.status, 'completed');
    const text = response.body.output.find((o: { type: string }) => o.type === 'message').content[0].text as string;
    t.true(text.length > 0);
    t.true(response.body.usage.output_tokens > 0);
  });
});
