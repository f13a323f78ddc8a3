import test from 'ava';
import { createOpenAiChatModel } from '../../src/adapters/openai/chat-model.ts';
import { createOpenAiClient } from '../../src/adapters/openai/client.ts';
import { ApiError } from '../../src/ports/api-error.ts';
import type { ChatRequest } from '../../src/ports/models.ts';
import { startChatServer } from '../helpers/provider-servers.ts';

/**
 * What llama.cpp's Python server (llama-cpp-python, what `npm run llm:up` runs) does differently
 * from OpenAI, on the loopback stand-in. It refuses OpenAI's
 * `response_format: {type: "json_schema"}` with FastAPI's 422 and takes the schema as
 * `{type: "json_object", schema}`: the adapter asks once more in that form, then keeps to it.
 */
const schema = { type: 'object', properties: { class: { type: 'string', enum: ['a', 'b'] } }, required: ['class'] };
const structured: ChatRequest = {
  messages: [{ role: 'user', content: 'Classify.' }],
  options: { response_format: { type: 'json_schema', json_schema: { name: 'classification', strict: true, schema } } },
};
/** What llama-cpp-python 0.3.36 actually answers: its handler catches the validation error and says 500. */
const llamaCpp = {
  status: 500,
  body: { error: { message: "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\"}", type: 'internal_server_error', param: null, code: null } },
};
const refusal = { status: 422, body: { detail: [{ loc: ['body', 'response_format', 'type'], msg: "Input should be 'text' or 'json_object'", type: 'literal_error' }] } };

async function withModel(failFirst: number | { failFirst: number; failure: typeof refusal | typeof llamaCpp }, run: (model: ReturnType<typeof createOpenAiChatModel>, requests: { body: Record<string, unknown> }[]) => Promise<void>) {
  const failing = typeof failFirst === 'number' ? { failFirst, failure: refusal } : failFirst;
  const server = await startChatServer({ ...failing, pieces: ['{"class":"a"}'] });
  try {
    const client = createOpenAiClient({ apiKey: 'sk-loopback', baseURL: server.baseUrl, maxRetries: 0, timeoutMs: 5000 });
    await run(createOpenAiChatModel({ client, model: 'loop-chat' }), server.requests);
  } finally {
    await server.close();
  }
}

test('a provider refusing json_schema is asked again with {type: json_object, schema}, and that form is kept', async (t) => {
  await withModel(1, async (model, requests) => {
    t.is((await model.complete(structured)).content, '{"class":"a"}');
    t.deepEqual(
      requests.map((r) => (r.body.response_format as { type: string }).type),
      ['json_schema', 'json_object'],
    );
    t.deepEqual(requests[1]!.body.response_format, { type: 'json_object', schema });
    // Learned: the next structured request, streamed this time, goes in the older form at once.
    const deltas = [];
    for await (const delta of model.stream(structured)) deltas.push(delta);
    t.is(requests.length, 3);
    t.deepEqual(requests[2]!.body.response_format, { type: 'json_object', schema });
  });
});

test('llama-cpp-python’s 500 naming the response format is such a refusal too', async (t) => {
  await withModel({ failFirst: 1, failure: llamaCpp }, async (model, requests) => {
    t.is((await model.complete(structured)).content, '{"class":"a"}');
    t.deepEqual(requests[1]!.body.response_format, { type: 'json_object', schema });
  });
});

test('another 500 is no refusal of the format: it is not asked again in the older form', async (t) => {
  await withModel({ failFirst: 1, failure: { status: 500, body: { error: { message: 'out of memory', type: 'server_error', param: null, code: null } } } as typeof llamaCpp }, async (model, requests) => {
    await t.throwsAsync(model.complete(structured), { instanceOf: ApiError });
    t.true(requests.every((r) => (r.body.response_format as { type: string }).type === 'json_schema'));
  });
});

test('a refusal of a request without a JSON schema is not retried', async (t) => {
  await withModel(1, async (model, requests) => {
    const error = await t.throwsAsync(model.complete({ messages: structured.messages }), { instanceOf: ApiError });
    t.is(error!.code, 'provider_rejected_request');
    t.is(requests.length, 1);
  });
});

test('a provider refusing both forms answers its refusal of the second', async (t) => {
  await withModel(2, async (model, requests) => {
    const error = await t.throwsAsync(model.complete(structured), { instanceOf: ApiError });
    t.is(error!.code, 'provider_rejected_request');
    t.regex(error!.message, /'text' or 'json_object'/);
    t.is(requests.length, 2);
  });
});

test('a stream that ends without a finish reason (cut off) fails as provider_bad_response instead of passing as a whole answer', async (t) => {
  const server = await startChatServer({ cutOff: true, pieces: ['Half ', 'an answer'] });
  try {
    const client = createOpenAiClient({ apiKey: 'sk-loopback', baseURL: server.baseUrl, maxRetries: 0, timeoutMs: 5000 });
    const model = createOpenAiChatModel({ client, model: 'loop-chat' });
    const received: string[] = [];
    const error = await t.throwsAsync(
      (async () => {
        for await (const delta of model.stream(structured)) if ('content' in delta) received.push(delta.content);
      })(),
      { instanceOf: ApiError },
    );
    t.is(error!.code, 'provider_bad_response');
    t.regex(error!.message, /ended before the answer did/);
    t.deepEqual(received, ['Half ', 'an answer'], 'what came is passed on as it came');
    t.is(server.requests.length, 1, 'not asked again: the text so far is out');
  } finally {
    await server.close();
  }
});

test('a 400 that is not about the context window stays 422 provider_rejected_request; llama.cpp’s context refusal is 400 context_length_exceeded', async (t) => {
  const context = { status: 400, body: { error: { message: "This model's maximum context length is 4096 tokens. However, you requested 5012 tokens (5004 in the messages, 8 in the completion).", type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } } };
  const other = { status: 400, body: { error: { message: "'temperature' must be at most 2.", type: 'invalid_request_error', param: 'temperature', code: null } } };
  for (const [failure, code, status] of [[context, 'context_length_exceeded', 400], [other, 'provider_rejected_request', 422]] as const) {
    await withModel({ failFirst: 1, failure: failure as unknown as typeof llamaCpp }, async (model) => {
      const error = await t.throwsAsync(model.complete({ messages: structured.messages }), { instanceOf: ApiError });
      t.like(error, { status, code });
      t.regex(error!.message, /maximum context length is 4096|must be at most 2/);
    });
  }
});

test('an empty stream (200, no chunk) is asked again without streaming: its answer is passed on', async (t) => {
  const server = await startChatServer({ emptyStream: true, pieces: ['Whole ', 'answer.'] });
  try {
    const client = createOpenAiClient({ apiKey: 'sk-loopback', baseURL: server.baseUrl, maxRetries: 0, timeoutMs: 5000 });
    const deltas = [];
    for await (const delta of createOpenAiChatModel({ client, model: 'loop-chat' }).stream({ messages: structured.messages })) deltas.push(delta);
    t.deepEqual(deltas, [{ content: 'Whole answer.' }, { finishReason: 'stop', usage: { promptTokens: 11, completionTokens: 4 } }]);
    t.deepEqual(server.requests.map((r) => r.body.stream), [true, false]);
  } finally {
    await server.close();
  }
});
