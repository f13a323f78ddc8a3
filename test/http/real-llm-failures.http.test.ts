import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { installDir } from '../../scripts/llm/install.ts';
import { reader } from '../helpers/event-stream.ts';
import { ADMIN_KEY } from '../helpers/admin-key.ts';
import { chatEvents, connectLlm, type RealLlm, startServerForLlm, withRealLlm } from '../helpers/real-llm.ts';
import type { TestServer } from '../helpers/server.ts';

/**
 * What goes wrong with a real model server (npm run llm:up): a client leaving mid-stream, a
 * prompt longer than the model's context window, and the server dying mid-answer (a second
 * instance of its own, so the shared one stays up for the other files).
 */
withRealLlm(test, 'failures with a real LLM server', (llm: RealLlm) => {
  let server: TestServer;
  let model: string;

  test.before(async () => {
    server = await startServerForLlm();
    ({ model } = await connectLlm(server, llm));
  });
  test.after.always(() => server?.close());

  const streamChat = (body: Record<string, unknown>, signal?: AbortSignal) =>
    fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, stream: true }),
      ...(signal && { signal }),
    });
  const long = { messages: [{ role: 'user', content: 'Write a long story about a cat who travels the world.' }], temperature: 0, max_tokens: 400 };

  test.serial('a client leaving mid-stream: the generation stops, nothing is recorded, the server answers the next at once', async (t) => {
    const leaving = new AbortController();
    const response = await streamChat({ model, ...long }, leaving.signal);
    t.is(response.status, 200);
    const events = reader(response);
    await events.until((sent) => sent.some((e) => e.data?.choices?.[0]?.delta?.content));
    const id = events.events()[0]!.data.id as string;
    leaving.abort();
    // 400 tokens take many seconds on two cores; the next short answer comes long before the abandoned one could have ended.
    const started = Date.now();
    const next = await server.call('POST', '/v1/chat/completions', { json: { model, temperature: 0, max_tokens: 4, messages: [{ role: 'user', content: 'Hi' }] } });
    t.is(next.status, 200, JSON.stringify(next.body));
    t.true(Date.now() - started < 8000, `the next answer took ${Date.now() - started} ms`);
    t.deepEqual(await chatEvents(server, id, 1000), [], 'an abandoned chat is not recorded');
  });

  // Tokens of SmolLM2 are about 4 characters of English: 6000 words are well past the server's 4096.
  const tooLong = { messages: [{ role: 'user', content: `${'the quick brown fox jumps over the lazy dog '.repeat(700)}Summarise.` }], max_tokens: 8 };

  test.serial('a prompt longer than the model’s context window: 400 context_length_exceeded with the server’s reason, blocking and streamed', async (t) => {
    const answer = await server.call('POST', '/v1/chat/completions', { json: { model, ...tooLong } });
    t.is(answer.status, 400, JSON.stringify(answer.body));
    t.like(answer.body.error, { type: 'invalid_request_error', code: 'context_length_exceeded', param: 'messages' });
    t.regex(answer.body.error.message, /context window.*maximum context length is \d+ tokens/);

    // Streamed, the answer has begun (200) before the provider is asked: the refusal is the stream's error event.
    const streamed = await streamChat({ model, ...tooLong });
    t.is(streamed.status, 200);
    const events = reader(streamed);
    await events.until((sent) => sent.some((e) => e.event === 'error'));
    t.like(events.events().find((e) => e.event === 'error')!.data, { status: 400, error: { code: 'context_length_exceeded' } });
  });

  test.serial('the server killed mid-answer: the stream ends with provider_unavailable, nothing is recorded, and the next call says it is down', async (t) => {
    t.timeout(180_000);
    const env = { ...process.env, LLM_INSTANCE: 'killed-mid-answer' };
    const script = join(import.meta.dirname, '..', '..', 'scripts', 'llm.ts');
    // Not spawnSync: our server runs in this process and must go on answering meanwhile.
    const up = await promisify(execFile)(process.execPath, ['--import', 'tsx', script, 'up'], { env });
    const baseUrl = /LLM_BASE_URL=(\S+)/.exec(up.stdout)![1]!;
    try {
      const doomed = await connectLlm(server, { baseUrl, modelId: llm.modelId }, 'doomed');
      const response = await streamChat({ model: doomed.model, ...long });
      const events = reader(response);
      await events.until((sent) => sent.some((e) => e.data?.choices?.[0]?.delta?.content));
      const id = events.events()[0]!.data.id as string;
      const { pid } = JSON.parse(readFileSync(join(installDir(), 'server-killed-mid-answer.json'), 'utf8')) as { pid: number };
      process.kill(pid, 'SIGKILL');
      await events.until((sent) => sent.some((e) => e.event === 'error'));
      const failure = events.events().find((e) => e.event === 'error')!.data;
      t.like(failure, { status: 502, error: { code: 'provider_unavailable' } });
      t.notRegex(events.text(), /data: \[DONE\]/, 'no end of an answer that did not end');
      t.deepEqual(await chatEvents(server, id, 1000), [], 'an answer cut off is not recorded');

      const after = await server.call('POST', '/v1/chat/completions', { json: { model: doomed.model, max_tokens: 4, messages: [{ role: 'user', content: 'Hi' }] } });
      t.is(after.status, 502);
      t.like(after.body.error, { code: 'provider_unavailable' });
      t.regex(after.body.error.message, /refused the connection \(ECONNREFUSED\)/);
    } finally {
      await promisify(execFile)(process.execPath, ['--import', 'tsx', script, 'down'], { env });
    }
  });
});
