import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { sampleKnowledgeBase, type SampleKb } from '../helpers/knowledge-base.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

/**
 * The debugger over real runs (the in-process runner, the offline model): a run's trace, its
 * events followed after the fact, the workflow's run history, one node run alone, a run from a
 * chosen node, which version runs, and the templates that call out (http-lookup) and iterate
 * (summarise-each). Definitions alone (versions, ETag, validate): workflow-versions.http.test.ts.
 */
let server: TestServer;
let kb: SampleKb;
let upstream: Server;
let lookupUrl: string;
const lookups: unknown[] = [];
const QUESTION = 'How long is each Zephyr-9 blade?';

test.before(async () => {
  upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => {
      lookups.push(JSON.parse(body));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ticket: 'T-9', note: 'blade order pending' }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  lookupUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/lookup`;
  server = await startServer({ KBQA_WORKFLOW_HTTP_ALLOW_HOSTS: '127.0.0.1' });
  kb = await sampleKnowledgeBase(server);
});
test.after.always(async () => {
  await server?.close();
  upstream?.close();
});

type Attempt = { node_id: string; status: string; attempt: number; inputs: Record<string, unknown>; outputs: Record<string, unknown> | null; elapsed_ms: number; reused_from: string | null };

async function workflow(body: Record<string, unknown> = { template: 'knowledge-qa', knowledge_base_id: kb.kbId }) {
  const created = await server.call('POST', '/v1/workflows', { json: { name: 'debugged', ...body } });
  if (created.status !== 201) throw new Error(`${created.status} ${JSON.stringify(created.body)}`);
  return created.body;
}
async function run(id: string, body: Record<string, unknown>) {
  const reply = await server.call('POST', `/v1/workflows/${id}/run`, { json: body });
  if (reply.status !== 200) throw new Error(`${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}
const trace = async (runId: string): Promise<Attempt[]> => (await server.call('GET', `/v1/workflow-runs/${runId}/trace`)).body.data;

test('a run’s trace: every node attempt in order with its inputs, outputs and time; its events can be followed after the fact', async (t) => {
  const wf = await workflow();
  const done = await run(wf.id, { inputs: { question: QUESTION } });
  t.is(done.status, 'succeeded', JSON.stringify(done.error));
  const attempts = await trace(done.id);
  t.deepEqual(attempts.map((a) => [a.node_id, a.status, a.attempt]), [
    ['start', 'succeeded', 1],
    ['retrieve', 'succeeded', 1],
    ['llm', 'succeeded', 1],
    ['answer', 'succeeded', 1],
  ]);
  t.deepEqual(attempts[0]!.inputs, { question: QUESTION });
  t.is(attempts[1]!.inputs.query, QUESTION, 'the rendered template, as the node received it');
  t.regex(String(attempts[2]!.outputs?.text), /blade/i);
  t.true(attempts.every((a) => typeof a.elapsed_ms === 'number' && a.elapsed_ms >= 0));
  const res = await fetch(`${server.url}/v1/workflow-runs/${done.id}/events`, { headers: { authorization: 'Bearer test-admin-key-0123456789abcdef' } });
  t.is(res.headers.get('content-type'), 'text/event-stream; charset=utf-8');
  const text = await res.text();
  const succeeded = [...text.matchAll(/^event: NodeRunSucceeded\ndata: (.*)$/gm)].map((m) => JSON.parse(m[1]!).node_id);
  t.deepEqual(succeeded, ['start', 'retrieve', 'llm', 'answer']);
  t.is([...text.matchAll(/^event: (\w+)$/gm)].at(-1)?.[1], 'workflow_run');
  const history = (await server.call('GET', `/v1/workflows/${wf.id}/runs`)).body;
  t.deepEqual(history.data.map((r: { id: string }) => r.id), [done.id]);
});

test('one node alone, with the outputs of the nodes it references given; nothing is recorded', async (t) => {
  const wf = await workflow();
  // Node by node, as someone debugging does: the retrieval alone, then the model on what it found.
  const retrieve = await server.call('POST', `/v1/workflows/${wf.id}/nodes/retrieve/run`, { json: { inputs: { start: { question: QUESTION } } } });
  t.is(retrieve.status, 200, JSON.stringify(retrieve.body));
  t.like(retrieve.body, { object: 'workflow_node_run', node_id: 'retrieve', node_type: 'knowledge_retrieval', status: 'succeeded', error: null });
  t.true(retrieve.body.outputs.passages.length > 0);
  const { context } = retrieve.body.outputs;
  const alone = await server.call('POST', `/v1/workflows/${wf.id}/nodes/llm/run`, { json: { inputs: { start: { question: QUESTION }, retrieve: retrieve.body.outputs } } });
  t.is(alone.body.status, 'succeeded', JSON.stringify(alone.body.error));
  t.regex(String(alone.body.outputs.text), /blade/i);
  t.true(String(alone.body.inputs.system).includes(context), 'the inputs as rendered from what was given');
  const empty = await server.call('POST', `/v1/workflows/${wf.id}/nodes/llm/run`, { json: { inputs: { start: { question: QUESTION } } } });
  t.not(empty.body.outputs.text, alone.body.outputs.text, 'without the passages the model has nothing to answer from');
  t.is((await server.call('POST', `/v1/workflows/${wf.id}/nodes/nowhere/run`, { json: { inputs: {} } })).status, 404);
  const stranger = await server.call('POST', `/v1/workflows/${wf.id}/nodes/llm/run`, { json: { inputs: { elsewhere: { text: 'x' } } } });
  t.is(stranger.status, 400);
  t.is(stranger.body.error.param, 'inputs.elsewhere');
  t.is((await server.call('GET', `/v1/workflows/${wf.id}/runs`)).body.data.length, 0, 'no run was recorded');
});

test('a run from a chosen node reuses what the nodes before it recorded, and computes the rest', async (t) => {
  const wf = await workflow();
  const first = await run(wf.id, { inputs: { question: QUESTION } });
  const again = await run(wf.id, { from: { run_id: first.id, node_id: 'llm' } });
  t.is(again.status, 'succeeded', JSON.stringify(again.error));
  t.deepEqual(again.inputs, first.inputs, 'no inputs given: the earlier run’s');
  const attempts = await trace(again.id);
  t.deepEqual(attempts.map((a) => [a.node_id, a.reused_from]), [
    ['start', first.id],
    ['retrieve', first.id],
    ['llm', null],
    ['answer', null],
  ]);
  t.is(attempts[1]!.elapsed_ms, 0);
  t.deepEqual(attempts[1]!.outputs, (await trace(first.id))[1]!.outputs);
  t.is(again.outputs.answer, first.outputs.answer);
  const nowhere = await server.call('POST', `/v1/workflows/${wf.id}/run`, { json: { from: { run_id: first.id, node_id: 'nope' } } });
  t.is(nowhere.body.error.param, 'from.node_id');
  const other = await workflow();
  const foreign = await server.call('POST', `/v1/workflows/${other.id}/run`, { json: { from: { run_id: first.id, node_id: 'llm' } } });
  t.is(foreign.status, 404, 'a run of another workflow is not reused');
});

test('which version runs: the published one by default, the draft or a number when asked', async (t) => {
  const wf = await workflow();
  const withReply = (template: string) => ({ ...wf.graph, nodes: wf.graph.nodes.map((n: { id: string }) => (n.id === 'answer' ? { ...n, config: { template } } : n)) });
  await server.call('PUT', `/v1/workflows/${wf.id}`, { json: { name: 'v2', graph: withReply('version two') } });
  const unpublished = await run(wf.id, { inputs: { question: QUESTION } });
  t.is(unpublished.workflow_version, 2, 'nothing published: the draft runs');
  t.is((await server.call('POST', `/v1/workflows/${wf.id}/run`, { json: { inputs: { question: QUESTION }, version: 'published' } })).body.error.code, 'version_not_found');
  await server.call('POST', `/v1/workflows/${wf.id}/publish`);
  await server.call('PUT', `/v1/workflows/${wf.id}`, { json: { name: 'v3', graph: withReply('version three') } });
  t.like(await run(wf.id, { inputs: { question: QUESTION } }), { workflow_version: 2, outputs: { answer: 'version two' } });
  t.like(await run(wf.id, { inputs: { question: QUESTION }, version: 'draft' }), { workflow_version: 3, outputs: { answer: 'version three' } });
  t.like(await run(wf.id, { inputs: { question: QUESTION }, version: 1 }), { workflow_version: 1 });
  t.is((await server.call('POST', `/v1/workflows/${wf.id}/run`, { json: { inputs: { question: QUESTION }, version: 9 } })).status, 400);
});

test('template http-lookup: the question goes to the other system as JSON, its answer and the passages to the model', async (t) => {
  const wf = await workflow({ template: 'http-lookup', knowledge_base_id: kb.kbId, lookup_url: lookupUrl });
  lookups.length = 0;
  const question = 'How long is each "Zephyr-9" blade?';
  const done = await run(wf.id, { inputs: { question } });
  t.is(done.status, 'succeeded', JSON.stringify(done.error));
  t.deepEqual(lookups, [{ question }], 'a quote in the question still makes valid JSON');
  const llm = (await trace(done.id)).find((a) => a.node_id === 'llm')!;
  t.true(String(llm.inputs.system).includes('blade order pending'));
  t.true(done.outputs.citations.length > 0, 'the reply cites the passages');
});

test('template summarise-each: one summary per document the topic finds, by an iteration', async (t) => {
  const wf = await workflow({ template: 'summarise-each', knowledge_base_id: kb.kbId });
  const done = await run(wf.id, { inputs: { topic: 'Mount Erebus lava lake and sourdough starter' } });
  t.is(done.status, 'succeeded', JSON.stringify(done.error));
  const attempts = await trace(done.id);
  const groups = attempts.find((a) => a.node_id === 'group')!.outputs!.result as string[];
  const results = attempts.find((a) => a.node_id === 'each')!.outputs!.results as { summary: string }[];
  t.true(groups.length >= 2, `documents found: ${groups.length}`);
  t.is(results.length, groups.length, 'one summary per document');
  t.is(String(done.outputs.answer).split('\n').length, groups.length);
  t.true(results.every((r) => r.summary.length > 0));
});
