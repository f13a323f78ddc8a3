import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { createWorkspaceWithAdminKey } from '../../src/app/services/workspaces.ts';
import { workflowRunDecider } from '../../src/domain/workflow/run.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { eventually } from '../helpers/temp.ts';

/**
 * Runs of different workspaces go at once (issue 42, item 3): a run whose http_request node waits
 * on a loopback server that answers only when the test says so holds one slot, not the runner.
 * Two servers: `roomy` has a slot to spare beyond a workspace's limit (3 slots, 2 per workspace),
 * `tight` lets one workspace take every slot (2 and 2), for the fairness case.
 */
let roomy: TestServer;
let tight: TestServer;
let upstreamUrl: string;
const held: ServerResponse[] = [];
const upstream = createServer((req, res) => {
  req.resume();
  req.on('end', () => held.push(res));
});

test.before(async () => {
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const env = { KBQA_WORKFLOW_HTTP_ALLOW_HOSTS: '127.0.0.1', KBQA_WORKFLOW_BLOCKING_WAIT_S: '20' };
  [roomy, tight] = await Promise.all([
    startServer({ ...env, KBQA_WORKFLOW_CONCURRENCY: '3', KBQA_WORKFLOW_CONCURRENCY_PER_WORKSPACE: '2' }),
    startServer({ ...env, KBQA_WORKFLOW_CONCURRENCY: '2', KBQA_WORKFLOW_CONCURRENCY_PER_WORKSPACE: '2' }),
  ]);
});
test.afterEach.always(() => releaseAll());
test.after.always(async () => {
  releaseAll();
  await Promise.all([roomy?.close(), tight?.close()]);
  upstream.closeAllConnections();
  upstream.close();
});

const workspaceKey = async (ctx: TestServer['runtime']['ctx'], name: string) => (await createWorkspaceWithAdminKey(ctx, name))!;

function release(n = held.length) {
  for (const res of held.splice(0, n)) res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
}
const releaseAll = () => release();

const start = { id: 'start', type: 'start', config: { inputs: [{ name: 'q', type: 'string', required: true }] } };
const chain = (nodes: object[]) => ({ nodes, edges: nodes.slice(1).map((_, i) => ({ from: (nodes[i] as { id: string }).id, to: (nodes[i + 1] as { id: string }).id })) });
const slowGraph = () =>
  chain([
    start,
    { id: 'wait', type: 'http_request', timeout_ms: 60_000, config: { method: 'GET', url: `${upstreamUrl}/slow`, timeout_ms: 60_000 } },
    { id: 'answer', type: 'direct_reply', config: { template: 'slow {{wait.status}}' } },
  ]);
const trivialGraph = () => chain([start, { id: 'answer', type: 'direct_reply', config: { template: 'quick {{start.q}}' } }]);

async function workflow(server: TestServer, key: string | undefined, graph: object): Promise<string> {
  const created = await server.call('POST', '/v1/workflows', { key, json: { name: 'w', graph } });
  if (created.status !== 201) throw new Error(`${created.status} ${JSON.stringify(created.body)}`);
  return created.body.id;
}

const run = (server: TestServer, key: string | undefined, workflowId: string, mode: 'async' | 'blocking') =>
  server.call('POST', `/v1/workflows/${workflowId}/run`, { key, json: { inputs: { q: 'hi' }, response_mode: mode } });

const status = async (server: TestServer, key: string | undefined, runId: string): Promise<string> => (await server.call('GET', `/v1/workflow-runs/${runId}`, { key })).body.status;

/** Where the run's WorkflowRunStarted is in the log: the order the runner started runs in. */
async function startedAt(server: TestServer, runId: string): Promise<bigint> {
  const started = (await server.runtime.store.readStream(workflowRunDecider.streamId(runId))).find((e) => e.type === 'WorkflowRunStarted');
  return started?.position ?? BigInt(Number.MAX_SAFE_INTEGER);
}

test.serial("another workspace's trivial run finishes while a slow run's HTTP node is still waiting", async (t) => {
  const slow = await run(roomy, undefined, await workflow(roomy, undefined, slowGraph()), 'async');
  await eventually(() => held.length === 1);
  const other = await workspaceKey(roomy.runtime.ctx, 'quiet-team');
  const quick = await run(roomy, other, await workflow(roomy, other, trivialGraph()), 'blocking');
  t.is(quick.status, 200, JSON.stringify(quick.body));
  t.is(quick.body.status, 'succeeded');
  t.is(quick.body.outputs.answer, 'quick hi');
  t.is(await status(roomy, undefined, slow.body.id), 'running', 'the slow run was still waiting on its HTTP node');
  release();
  await eventually(async () => (await status(roomy, undefined, slow.body.id)) === 'succeeded');
  t.pass();
});

test.serial('a workspace over its limit queues its runs without blocking another workspace', async (t) => {
  const noisyKey = await workspaceKey(roomy.runtime.ctx, 'noisy-team');
  const quietKey = await workspaceKey(roomy.runtime.ctx, 'calm-team');
  const slowId = await workflow(roomy, noisyKey, slowGraph());
  const slow = [];
  for (let i = 0; i < 3; i++) slow.push((await run(roomy, noisyKey, slowId, 'async')).body.id as string);
  await eventually(() => held.length === 2);
  const quick = await run(roomy, quietKey, await workflow(roomy, quietKey, trivialGraph()), 'blocking');
  t.is(quick.body.status, 'succeeded', JSON.stringify(quick.body));
  // Two of the noisy workspace's runs wait on the server, the third waits for a slot of its own
  // workspace: the process had one to spare, which the other workspace's run took.
  t.is(held.length, 2);
  t.deepEqual(await Promise.all(slow.map((id) => status(roomy, noisyKey, id))), ['running', 'running', 'queued']);
  release();
  await eventually(() => held.length === 1);
  release();
  for (const id of slow) await eventually(async () => (await status(roomy, noisyKey, id)) === 'succeeded');
  t.pass();
});

test.serial("a workspace's 20 slow runs hold back another workspace's run by one slot at most", async (t) => {
  const noisyKey = await workspaceKey(tight.runtime.ctx, 'flood-team');
  const quietKey = await workspaceKey(tight.runtime.ctx, 'single-team');
  const slowId = await workflow(tight, noisyKey, slowGraph());
  const quickId = await workflow(tight, quietKey, trivialGraph());
  const flood = [];
  for (let i = 0; i < 20; i++) flood.push((await run(tight, noisyKey, slowId, 'async')).body.id as string);
  await eventually(() => held.length === 2);
  const single = (await run(tight, quietKey, quickId, 'async')).body.id as string;
  // Every slot is the flood's: the single run waits for one, then takes the first that frees.
  release(1);
  await eventually(async () => (await status(tight, quietKey, single)) === 'succeeded', { timeoutMs: 10_000 });
  const singleStarted = await startedAt(tight, single);
  const floodStarted = (await Promise.all(flood.map((id) => startedAt(tight, id)))).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  t.true(floodStarted[1]! < singleStarted && singleStarted < floodStarted[2]!, 'the single run started after the two that held the slots, before the flood’s third');
  // The flood then drains, two at a time.
  for (let done = 1; done < 20; ) {
    await eventually(() => held.length > 0, { timeoutMs: 10_000 });
    done += held.length;
    release();
  }
  for (const id of flood) await eventually(async () => (await status(tight, noisyKey, id)) === 'succeeded', { timeoutMs: 10_000 });
  t.pass();
});
