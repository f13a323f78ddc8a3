import test from 'ava';
import { startServer, type TestServer } from '../helpers/server.ts';

/**
 * Code nodes run on sandbox threads, not on the event loop that answers requests (issue 42, item
 * 2). Not a timing test: the loop holds its thread for seconds, and the checks are that /healthz
 * answered while the run was still on that node, well before its limit; on the event loop, nothing
 * answered until the loop had failed the node.
 */
let server: TestServer;
test.before(async () => {
  server = await startServer({ KBQA_CODE_THREADS: '1' });
});
test.after.always(async () => {
  await server?.close();
});

type Node = { id: string; type: string; config: Record<string, unknown>; timeout_ms?: number };
const start: Node = { id: 'start', type: 'start', config: { inputs: [] } };
const reply: Node = { id: 'answer', type: 'direct_reply', config: { template: '{{loop.result}}' } };
const chain = (nodes: Node[]) => ({ nodes, edges: nodes.slice(1).map((node, i) => ({ from: nodes[i]!.id, to: node.id })) });

async function startRun(loop: Node) {
  const created = await server.call('POST', '/v1/workflows', { json: { name: 'busy', graph: chain([start, loop, reply]) } });
  if (created.status !== 201) throw new Error(`${created.status} ${JSON.stringify(created.body)}`);
  const run = await server.call('POST', `/v1/workflows/${created.body.id}/run`, { json: { inputs: {}, response_mode: 'async' } });
  return run.body.id as string;
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const readRun = async (id: string) => (await server.call('GET', `/v1/workflow-runs/${id}`)).body;
const nodeRun = (run: { node_runs?: { node_id: string; status: string }[] }, id: string) => run.node_runs?.find((n) => n.node_id === id);

test.serial('/healthz and the API answer while a code node loops until its time limit', async (t) => {
  // A first code node compiles the engine, asynchronously: the loop must not start inside that window.
  const warm = await startRun({ id: 'loop', type: 'code', config: { code: 'return 1' } });
  t.is((await waitFor(() => readRun(warm), (run) => run.status === 'succeeded')).status, 'succeeded');
  const id = await startRun({ id: 'loop', type: 'code', config: { code: 'while (true) {}', time_limit_ms: 4000 } });
  await waitFor(() => readRun(id), (run) => nodeRun(run, 'loop')?.status === 'running');
  const asked = Date.now();
  const health = await server.call('GET', '/healthz');
  const answeredMs = Date.now() - asked;
  t.is(health.status, 200);
  const meanwhile = await readRun(id);
  t.is(nodeRun(meanwhile, 'loop')?.status, 'running', 'the loop still ran when /healthz answered');
  t.true(answeredMs < 2000, `/healthz took ${answeredMs} ms while the code ran (generous: the loop holds its thread 4 s)`);
  const failed = await waitFor(() => readRun(id), (run) => run.status === 'failed');
  t.is(failed.error?.code, 'code_timeout');
});

test.serial('a node timeout stops a code node that would run longer, and the next code node runs', async (t) => {
  // The node's own timeout (1 s) comes before the code's time limit (10 s): the thread is stopped from outside.
  const id = await startRun({ id: 'loop', type: 'code', timeout_ms: 1000, config: { code: 'while (true) {}', time_limit_ms: 10_000 } });
  const failed = await waitFor(() => readRun(id), (run) => run.status === 'failed');
  t.is(failed.error?.code, 'timeout');
  const elapsed = nodeRun(failed, 'loop') as { elapsed_ms?: number } | undefined;
  t.true((elapsed?.elapsed_ms ?? 0) < 5000, `the node failed after ${elapsed?.elapsed_ms} ms`);
  const next = await startRun({ id: 'loop', type: 'code', config: { code: 'return 6 * 7' } });
  const done = await waitFor(() => readRun(next), (run) => run.status === 'succeeded' || run.status === 'failed');
  t.is(done.outputs?.answer, '42');
});
