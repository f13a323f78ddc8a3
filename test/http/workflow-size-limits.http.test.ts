import test from 'ava';
import { MAX_ERROR_MESSAGE_BYTES, MAX_NODE_OUTPUT_BYTES, MAX_RUN_RECORDED_BYTES } from '../../src/domain/workflow/limits.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

/**
 * What a run records is bounded (issue 42, item 13): a node's outputs, its error message and the
 * run's total, each failing cleanly with a code and a message naming the limit, and no event over
 * the log's 512 KB.
 */
let server: TestServer;
test.before(async () => {
  server = await startServer();
});
test.after.always(async () => {
  await server?.close();
});

type Node = { id: string; type: string; config: Record<string, unknown> };
const start: Node = { id: 'start', type: 'start', config: { inputs: [] } };
const chain = (nodes: Node[]) => ({ nodes, edges: nodes.slice(1).map((node, i) => ({ from: nodes[i]!.id, to: node.id })) });
const reply = (template: string): Node => ({ id: 'answer', type: 'direct_reply', config: { template } });

async function runGraph(graph: { nodes: Node[]; edges: unknown[] }) {
  const created = await server.call('POST', '/v1/workflows', { json: { name: 'sizes', graph } });
  if (created.status !== 201) throw new Error(`${created.status} ${JSON.stringify(created.body)}`);
  const run = await server.call('POST', `/v1/workflows/${created.body.id}/run`, { json: { inputs: {} } });
  return run.body;
}

/** The run's own events, each as the log holds it: every one under 512 KB. */
async function largestEventBytes(runId: string) {
  const events = await server.runtime.ctx.store.readStream(`workflow_run-${runId}`);
  return Math.max(...events.map((event) => Buffer.byteLength(JSON.stringify(event.data))));
}

test("a code node's 5 MB throw is recorded cut to the message limit, saying so", async (t) => {
  const run = await runGraph(chain([start, { id: 'boom', type: 'code', config: { code: 'throw new Error("x".repeat(5 * 1024 * 1024))', time_limit_ms: 5000 } }, reply('{{boom.result}}')]));
  t.is(run.status, 'failed');
  t.is(run.error.code, 'code_error');
  t.true(Buffer.byteLength(run.error.message) <= MAX_ERROR_MESSAGE_BYTES, `${Buffer.byteLength(run.error.message)} bytes`);
  t.regex(run.error.message, /^Error: x+ … \[cut/);
  t.true((await largestEventBytes(run.id)) < 16 * 1024);
});

test("an iteration's summed results fail output_too_large as soon as they pass the node limit, naming it", async (t) => {
  const items: Node = { id: 'items', type: 'code', config: { code: 'return Array.from({ length: 50 }, (_, i) => i)' } };
  const sub = { nodes: [{ id: 's', type: 'start', config: { inputs: [{ name: 'item', type: 'number', required: true }] } }, { id: 'big', type: 'code', config: { code: 'return "y".repeat(200000)' } }, { id: 'e', type: 'end', config: { outputs: { text: '{{big.result}}' } } }], edges: [{ from: 's', to: 'big' }, { from: 'big', to: 'e' }] };
  const run = await runGraph(chain([start, items, { id: 'each', type: 'iteration', config: { items: '{{items.result}}', graph: sub } }, reply('{{each.results}}')]));
  t.is(run.status, 'failed', JSON.stringify(run.error));
  t.is(run.error.code, 'output_too_large');
  t.is(run.error.node_id, 'each');
  t.regex(run.error.message, new RegExp(`at most ${MAX_NODE_OUTPUT_BYTES} bytes`));
  t.regex(run.error.message, /by item 1,/, 'it stopped at the second item, not after all 50');
  t.true((await largestEventBytes(run.id)) < 512 * 1024);
});

test('templates doubling through a lattice stop at the node limit', async (t) => {
  const nodes: Node[] = [start, { id: 't0', type: 'template', config: { template: 'z'.repeat(10_000) } }];
  for (let i = 1; i <= 6; i++) nodes.push({ id: `t${i}`, type: 'template', config: { template: `{{t${i - 1}.output}}{{t${i - 1}.output}}` } });
  const run = await runGraph(chain([...nodes, reply('{{t6.output}}')]));
  t.is(run.status, 'failed');
  t.is(run.error.code, 'output_too_large');
  t.is(run.error.node_id, 't5', '10 KB × 2^5 = 320 KB is the first past 256 KB');
  t.regex(run.error.message, new RegExp(`${MAX_NODE_OUTPUT_BYTES}`));
  t.true((await largestEventBytes(run.id)) < 512 * 1024);
});

test("a run's recorded total fails run_too_large on the node that passes it, naming the limit", async (t) => {
  // 45 nodes of 200 KB each: each under the node limit, 9 MB together.
  const nodes: Node[] = [start, { id: 'seed', type: 'template', config: { template: 'w'.repeat(20_000) } }];
  nodes.push({ id: 'wide', type: 'template', config: { template: '{{seed.output}}'.repeat(10) } });
  for (let i = 0; i < 45; i++) nodes.push({ id: `copy${i}`, type: 'code', config: { code: 'return inputs.w', inputs: { w: '{{wide.output}}' } } });
  const run = await runGraph(chain([...nodes, reply('done')]));
  t.is(run.status, 'failed', JSON.stringify(run.error));
  t.is(run.error.code, 'run_too_large');
  t.regex(run.error.node_id, /^copy\d+$/);
  t.regex(run.error.message, new RegExp(`at most ${MAX_RUN_RECORDED_BYTES} bytes`));
  t.true((await largestEventBytes(run.id)) < 512 * 1024);
});
