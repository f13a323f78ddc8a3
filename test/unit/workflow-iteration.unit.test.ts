import test from 'ava';
import { WorkflowGraph, type WorkflowGraphInput } from '../../schemas/workflow.ts';
import { allNodes, knowledgeBasesOf, validateGraph } from '../../src/domain/workflow/graph.ts';
import { nodeType } from '../../src/domain/workflow/nodes/index.ts';
import { nodeServices } from '../helpers/node-services.ts';
import { NodeFailure, type NodeServices, type RunScope } from '../../src/domain/workflow/nodes/node-type.ts';

type NodeInput = WorkflowGraphInput['nodes'][number];
const signal = new AbortController().signal;
const scope = (outputs: Record<string, Record<string, unknown>>): RunScope => ({ workspaceId: 'ws_1', inputs: {}, outputs: new Map(Object.entries(outputs)), nodeTypes: new Map() });

/** A sub-graph: start(item[, index]) → end {summary}. */
const subgraph = (inputs = ['item'], extra: Partial<{ nodes: unknown[]; edges: unknown[] }> = {}) => ({
  nodes: [
    { id: 'start', type: 'start', config: { inputs: inputs.map((name) => ({ name, type: name === 'index' ? 'number' : 'string' })) } },
    { id: 'done', type: 'end', config: { outputs: { summary: 'about {{start.item}}' } } },
    ...(extra.nodes ?? []),
  ],
  edges: [{ from: 'start', to: 'done' }, ...(extra.edges ?? [])],
});

const iterate = async (config: Record<string, unknown>, outputs: Record<string, Record<string, unknown>>, runSubgraph: NodeServices['runSubgraph']) => {
  const services: NodeServices = nodeServices({ similarity: async () => [], runSubgraph });
  return nodeType('iteration').run({ config: nodeType('iteration').config.parse(config), scope: scope(outputs), services, signal });
};

test('iteration: the sub-graph once per item, results in item order, index given only when declared', async (t) => {
  const seen: unknown[] = [];
  const echo: NodeServices['runSubgraph'] = async (_graph, inputs) => (seen.push(inputs), { summary: `about ${String(inputs.item)}` });
  const out = await iterate({ items: '{{split.list}}', graph: subgraph() }, { split: { list: ['a', 'b'] } }, echo);
  t.deepEqual(out, { results: [{ summary: 'about a' }, { summary: 'about b' }] });
  t.deepEqual(seen, [{ item: 'a' }, { item: 'b' }]);
  seen.length = 0;
  await iterate({ items: '["x"]', graph: subgraph(['item', 'index']) }, {}, echo);
  t.deepEqual(seen, [{ item: 'x', index: 0 }], 'a template rendering to a JSON list works too');
  t.deepEqual(await iterate({ items: '[]', graph: subgraph() }, {}, echo), { results: [] });
});

test('iteration: parallelism bounds the items running at once, results stay in order', async (t) => {
  let running = 0;
  let most = 0;
  const slow: NodeServices['runSubgraph'] = async (_graph, { item }) => {
    most = Math.max(most, ++running);
    await new Promise((resolve) => setTimeout(resolve, item === 0 ? 20 : 1));
    running--;
    return { n: item };
  };
  const items = JSON.stringify([0, 1, 2, 3, 4, 5, 6]);
  const out = await iterate({ items, graph: subgraph(), parallelism: 3 }, {}, slow);
  t.deepEqual((out.results as { n: number }[]).map((r) => r.n), [0, 1, 2, 3, 4, 5, 6]);
  t.is(most, 3);
  most = 0;
  await iterate({ items, graph: subgraph() }, {}, slow);
  t.is(most, 1, 'one at a time by default');
});

test('iteration: items that are not a list, and a failing item, fail the node with a reason', async (t) => {
  const ok: NodeServices['runSubgraph'] = async () => ({});
  for (const items of ['not json', '{"a":1}', '{{split.list}}']) {
    const failure = await t.throwsAsync(iterate({ items, graph: subgraph() }, { split: { list: 'text' } }, ok), { instanceOf: NodeFailure });
    t.is(failure?.code, 'invalid_items', items);
  }
  const failing: NodeServices['runSubgraph'] = async (_g, { item }) => {
    if (item === 'b') throw new NodeFailure('timeout', "node 'llm' failed: too slow");
    return {};
  };
  const failure = await t.throwsAsync(iterate({ items: '["a","b"]', graph: subgraph() }, {}, failing), { instanceOf: NodeFailure });
  t.like(failure, { code: 'timeout', message: "item 1: node 'llm' failed: too slow" });
});

const outer = (sub: unknown): WorkflowGraph =>
  WorkflowGraph.parse({
    nodes: [
      { id: 'start', type: 'start', config: { inputs: [{ name: 'topics', type: 'object' }] } },
      { id: 'loop', type: 'iteration', config: { items: '{{start.topics}}', graph: sub } },
      { id: 'done', type: 'end', config: { outputs: { results: '{{loop.results}}' } } },
    ],
    edges: [
      { from: 'start', to: 'loop' },
      { from: 'loop', to: 'done' },
    ],
  });

test('the sub-graph is checked as a graph on save; its faults name the iteration node', (t) => {
  t.deepEqual(validateGraph(outer(subgraph(['item', 'index']))), []);
  const messages = (sub: unknown) => validateGraph(outer(sub)).map((f) => [f.code, f.node, f.message]);
  t.deepEqual(messages(subgraph(['index'])).map(([code, node]) => [code, node]), [
    ['unresolved_reference', 'loop'],
    ['invalid_subgraph', 'loop'],
  ]);
  t.regex(String(messages(subgraph(['index']))[1]?.[2]), /must declare input 'item'/);
  t.regex(String(messages(subgraph(['item', 'topic']))[0]?.[2]), /declares input 'topic', but an iteration gives only item and index/);
  const badConfig = messages({ nodes: [{ id: 'start', type: 'start', config: { inputs: [{ name: 'item', type: 'text' }] } }], edges: [] });
  t.deepEqual(badConfig[0]?.slice(0, 2), ['invalid_subgraph', 'loop']);
  t.regex(String(badConfig[0]?.[2]), /iteration 'loop': config\.graph\.nodes\.0/);
  const unreachable = messages(subgraph(['item'], { nodes: [{ id: 'lost', type: 'template', config: { template: 'x' } }] }));
  t.regex(String(unreachable[0]?.[2]), /in the sub-graph of iteration 'loop': node 'lost' cannot be reached/);
  const outside = messages({ ...subgraph(), nodes: [subgraph().nodes[0], { id: 'done', type: 'end', config: { outputs: { x: '{{loop.results}}' } } }] });
  t.regex(String(outside[0]?.[2]), /there is no node 'loop'/, 'the sub-graph sees only its own nodes');
});

test('knowledge bases and models named inside a sub-graph count as the workflow’s', (t) => {
  const retrieve = { id: 'find', type: 'knowledge_retrieval', config: { knowledge_base_id: 'kb_inner', query: '{{start.item}}' } };
  const g = outer(subgraph(['item'], { nodes: [retrieve], edges: [{ from: 'start', to: 'find' }, { from: 'find', to: 'done' }] }));
  t.deepEqual(validateGraph(g), []);
  t.deepEqual(knowledgeBasesOf(g), ['kb_inner']);
  t.deepEqual(allNodes(g).map((n) => n.id), ['start', 'loop', 'start', 'done', 'find', 'done']);
});
