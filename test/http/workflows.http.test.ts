import test from 'ava';
import { sampleKnowledgeBase, type SampleKb } from '../helpers/knowledge-base.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let kb: SampleKb;

test.before(async () => {
  server = await startServer();
  kb = await sampleKnowledgeBase(server);
});
test.after.always(() => server?.close());

const qa = async () => (await server.call('POST', '/v1/workflows', { json: { name: 'QA', template: 'knowledge-qa', knowledge_base_id: kb.kbId } })).body;
const run = (id: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  server.call('POST', `/v1/workflows/${id}/run`, { json: body, headers });

// Creating, reading, replacing and deleting workflows (no run): workflow-definitions.http.test.ts, on the spec helper.

test('blocking run answers like the chat endpoint, with the same citations', async (t) => {
  const wf = await qa();
  const question = 'How long is each Zephyr-9 blade?';
  const { status, body } = await run(wf.id, { inputs: { question } });
  t.is(status, 200);
  t.is(body.status, 'succeeded', JSON.stringify(body.error));
  t.is(body.workflow_version, 1);
  t.deepEqual(body.node_runs.map((n: { node_id: string; status: string }) => [n.node_id, n.status]), [
    ['start', 'succeeded'],
    ['retrieve', 'succeeded'],
    ['llm', 'succeeded'],
    ['answer', 'succeeded'],
  ]);
  const chat = await server.call('POST', '/v1/chat/completions', {
    json: { model: 'kbqa-extractive', knowledge_base_id: kb.kbId, messages: [{ role: 'user', content: question }] },
  });
  t.is(body.outputs.answer, chat.body.choices[0].message.content);
  // The same objects: each pointed at the span the answer quotes (quote, char_start/char_end and its lines' boxes).
  // The run's output lists every passage retrieved (chat's `context`); those the answer marks are chat's `citations`.
  const outputs = body.outputs.citations as { index: number; chunk_id: string }[];
  t.deepEqual(
    outputs.filter((c) => chat.body.citations.some((cited: { index: number }) => cited.index === c.index)),
    chat.body.citations,
  );
  t.deepEqual(
    outputs.map((c) => c.chunk_id),
    chat.body.context.map((c: { chunk_id: string }) => c.chunk_id),
  );
  t.true(chat.body.citations.some((c: { quote: unknown }) => c.quote !== null), 'the answer quotes a span');
  const fetched = await server.call('GET', `/v1/workflow-runs/${body.id}`);
  t.deepEqual(fetched.body, body);
});

test('async answers 202 queued; the run finishes on its own', async (t) => {
  const wf = await qa();
  const { status, body } = await run(wf.id, { inputs: { question: 'What makes sourdough bread rise?' }, response_mode: 'async' });
  t.is(status, 202);
  // What was accepted, however fast the worker takes it.
  t.is(body.status, 'queued');
  t.deepEqual(body.node_runs, []);
  t.is(body.outputs, null);
  const deadline = Date.now() + 10_000;
  let doc = body;
  while (doc.status !== 'succeeded' && doc.status !== 'failed' && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    doc = (await server.call('GET', `/v1/workflow-runs/${body.id}`)).body;
  }
  t.is(doc.status, 'succeeded');
  t.regex(doc.outputs.answer, /yeast/);
});

test('streaming sends node events, then the finished run', async (t) => {
  const wf = await qa();
  const res = await fetch(`${server.url}/v1/workflows/${wf.id}/run`, {
    method: 'POST',
    headers: { authorization: 'Bearer test-admin-key-0123456789abcdef', 'content-type': 'application/json' },
    body: JSON.stringify({ inputs: { question: 'When did the Erebus lava lake become active?' }, response_mode: 'streaming' }),
  });
  t.is(res.headers.get('content-type'), 'text/event-stream; charset=utf-8');
  const text = await res.text();
  const events = [...text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
  // Every node's events, once each, however fast the run was before the stream subscribed.
  const succeeded = [...text.matchAll(/^event: NodeRunSucceeded\ndata: (.*)$/gm)].map((m) => JSON.parse(m[1]!).node_id);
  t.deepEqual(succeeded, ['start', 'retrieve', 'llm', 'answer']);
  t.is(events.filter((e) => e === 'NodeRunStarted').length, 4);
  t.is(events.at(-1), 'workflow_run');
  const final = JSON.parse(text.trim().split('\n').at(-1)!.slice('data: '.length));
  t.is(final.status, 'succeeded');
  t.regex(final.outputs.answer, /1972/);
});

test.serial('a stream that fails inside the server sends a generic error event, never the internal message', async (t) => {
  const wf = await qa();
  const readModels = server.runtime.readModels;
  const get = readModels.get.bind(readModels);
  const secret = 'SQLITE_IOERR at /var/lib/kbqa/internal-path';
  // The run is requested normally; reading it back for the stream then fails the way a broken store would.
  readModels.get = (async (collection: string, id: string) => {
    if (collection === 'workflow_runs') throw new Error(secret);
    return get(collection, id);
  }) as typeof readModels.get;
  try {
    const res = await fetch(`${server.url}/v1/workflows/${wf.id}/run`, {
      method: 'POST',
      headers: { authorization: 'Bearer test-admin-key-0123456789abcdef', 'content-type': 'application/json' },
      body: JSON.stringify({ inputs: { question: 'When did the Erebus lava lake become active?' }, response_mode: 'streaming' }),
    });
    const text = await res.text();
    t.false(text.includes(secret));
    t.false(text.includes('internal-path'));
    const error = JSON.parse(text.split('\n').find((line) => line.startsWith('data: {"error"'))!.slice('data: '.length));
    t.like(error, { error: { type: 'server_error', code: 'internal_error' }, status: 500 });
    t.regex(error.error.message, /The server had an error/);
  } finally {
    readModels.get = get;
  }
});

test.serial('a client that leaves a streamed run releases its feed subscriptions', async (t) => {
  const wf = await qa();
  const { feed, readModels } = server.runtime;
  const subscribe = feed.subscribe;
  const get = readModels.get.bind(readModels);
  let open = 0;
  // Nothing tells this stream that the run is over: no terminal event reaches it, and the read model says running.
  feed.subscribe = (key, listener) => {
    open++;
    const unsubscribe = subscribe(key, (m) => void (m.event.startsWith('WorkflowRun') || listener(m)));
    return () => (open--, unsubscribe());
  };
  readModels.get = (async (collection: string, id: string) => {
    const doc = await get<Record<string, unknown>>(collection, id);
    return collection === 'workflow_runs' && doc ? { ...doc, status: 'running' } : doc;
  }) as typeof readModels.get;
  try {
    const leaving = new AbortController();
    const res = await fetch(`${server.url}/v1/workflows/${wf.id}/run`, {
      method: 'POST',
      headers: { authorization: 'Bearer test-admin-key-0123456789abcdef', 'content-type': 'application/json' },
      body: JSON.stringify({ inputs: { question: 'When did the Erebus lava lake become active?' }, response_mode: 'streaming' }),
      signal: leaving.signal,
    });
    const first = await res.body!.getReader().read();
    t.regex(new TextDecoder().decode(first.value), /^event: (WorkflowRun|NodeRun)/);
    t.is(open, 2, 'the node events and the wait for the end');
    leaving.abort();
    for (let i = 0; open > 0 && i < 200; i++) await new Promise((r) => setTimeout(r, 10));
    t.is(open, 0);
  } finally {
    feed.subscribe = subscribe;
    readModels.get = get;
  }
});

test('inputs are checked against the start node; Idempotency-Key returns the first run', async (t) => {
  const wf = await qa();
  const missing = await run(wf.id, { inputs: {} });
  t.is(missing.status, 400);
  t.is(missing.body.error.param, 'inputs.question');
  const wrong = await run(wf.id, { inputs: { question: 42 } });
  t.is(wrong.body.error.param, 'inputs.question');
  const first = await run(wf.id, { inputs: { question: 'blade length?' } }, { 'idempotency-key': 'k-1' });
  const again = await run(wf.id, { inputs: { question: 'blade length?' } }, { 'idempotency-key': 'k-1' });
  t.is(again.body.id, first.body.id);
  t.is((await run('wf_nope', { inputs: {} })).status, 404);
  t.is((await server.call('GET', '/v1/workflow-runs/run_nope')).status, 404);
});

test('a node that fails fails the run with the node and the reason', async (t) => {
  const { body: other } = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'temp' } });
  const { body: wf } = await server.call('POST', '/v1/workflows', { json: { name: 'QA', template: 'knowledge-qa', knowledge_base_id: other.id } });
  await server.call('DELETE', `/v1/knowledge-bases/${other.id}`);
  const { status, body } = await run(wf.id, { inputs: { question: 'anything?' } });
  t.is(status, 200);
  t.is(body.status, 'failed');
  t.is(body.error.node_id, 'retrieve');
  t.is(body.error.code, 'knowledge_base_not_found');
});

test('a blocking run that outlasts KBQA_WORKFLOW_BLOCKING_WAIT_S answers 202 with the run so far', async (t) => {
  const { startChatServer } = await import('../helpers/provider-servers.ts');
  const provider = await startChatServer({ stallMs: 1_500, pieces: ['Slow answer [1].'] });
  const slow = await startServer({
    KBQA_WORKFLOW_BLOCKING_WAIT_S: '1',
    OPENAI_API_KEY: 'sk-loopback',
    OPENAI_BASE_URL: provider.baseUrl,
    KBQA_OPENAI_CHAT_MODELS: 'loop-chat',
  });
  try {
    const { kbId } = await sampleKnowledgeBase(slow);
    const { body: wf } = await slow.call('POST', '/v1/workflows', { json: { name: 'slow', template: 'knowledge-qa', knowledge_base_id: kbId, model: 'loop-chat' } });
    const { status, body } = await slow.call('POST', `/v1/workflows/${wf.id}/run`, { json: { inputs: { question: 'How long is a Zephyr-9 blade?' } } });
    t.is(status, 202);
    t.is(body.status, 'running');
    t.is(body.node_runs.at(-1).node_id, 'llm');
    let doc = body;
    const deadline = Date.now() + 10_000;
    while (doc.status === 'running' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      doc = (await slow.call('GET', `/v1/workflow-runs/${body.id}`)).body;
    }
    t.is(doc.status, 'succeeded');
    t.is(doc.outputs.answer, 'Slow answer [1].');
  } finally {
    await slow.close();
    await provider.close();
  }
});
