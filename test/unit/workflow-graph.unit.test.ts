import test from 'ava';
import { WorkflowGraph, type WorkflowGraphInput } from '../../schemas/workflow.ts';
import { type GraphFault, knowledgeBasesOf, topologicalOrder, validateGraph } from '../../src/domain/workflow/graph.ts';
import { knowledgeQaGraph } from '../../src/domain/workflow/knowledge-qa.ts';

type NodeInput = WorkflowGraphInput['nodes'][number];

const graph = (nodes: NodeInput[], edges: WorkflowGraphInput['edges']) => WorkflowGraph.parse({ nodes, edges });
const start = (id = 'start', inputs = ['question']): NodeInput => ({
  id,
  type: 'start',
  config: { inputs: inputs.map((name) => ({ name, type: 'string' })) },
});
const retrieve = (id = 'retrieve', query = '{{start.question}}'): NodeInput => ({
  id,
  type: 'knowledge_retrieval',
  config: { knowledge_base_id: 'kb_1', query },
});
const llm = (id = 'llm', prompt = '{{retrieve.context}} {{start.question}}'): NodeInput => ({ id, type: 'llm', config: { model: 'm', prompt } });
const reply = (id = 'answer', template = '{{llm.text}}'): NodeInput => ({ id, type: 'direct_reply', config: { template } });
const text = (id: string, template: string): NodeInput => ({ id, type: 'template', config: { template } });
const condition = (id = 'check', left = '{{retrieve.context}}'): NodeInput => ({ id, type: 'condition', config: { left, operator: 'empty' } });
const chain = (...ids: string[]) => ids.slice(1).map((to, i) => ({ from: ids[i] ?? '', to }));

const basic = () => graph([start(), retrieve(), llm(), reply()], chain('start', 'retrieve', 'llm', 'answer'));

const codes = (faults: GraphFault[]) => faults.map((f) => [f.code, f.node]);

test('the basic flow is valid', (t) => {
  t.deepEqual(validateGraph(basic()), []);
});

test('the knowledge-qa template is valid and parses as a graph', (t) => {
  const qa = knowledgeQaGraph('kb_1');
  t.deepEqual(validateGraph(qa), []);
  t.deepEqual(WorkflowGraph.parse(qa), qa);
  t.deepEqual(topologicalOrder(qa), ['start', 'retrieve', 'llm', 'answer']);
  t.like(qa.nodes[2], { type: 'llm', config: { model: 'kbqa-extractive' } });
  t.like(knowledgeQaGraph('kb_1', 'gpt-x').nodes[2], { config: { model: 'gpt-x' } });
});

test('a complex graph with a condition branch is valid', (t) => {
  const g = graph(
    [
      start('start', ['question', 'tone']),
      retrieve(),
      condition(),
      reply('not_covered', 'Sorry, nothing about {{ start.question }}.'),
      text('style', 'Answer in a {{start.tone}} tone.'),
      { id: 'llm', type: 'llm', config: { model: 'm', system: '{{style.output}}', prompt: '{{retrieve.context}}\n{{start.question}}', temperature: 0.2 } },
      reply('answer', '{{llm.text}} ({{check.result}})'),
    ],
    [
      { from: 'start', to: 'retrieve' },
      { from: 'retrieve', to: 'check' },
      { from: 'check', to: 'not_covered', when: true },
      { from: 'check', to: 'llm', when: false },
      { from: 'start', to: 'style' },
      { from: 'style', to: 'llm' },
      { from: 'llm', to: 'answer' },
    ],
  );
  t.deepEqual(validateGraph(g), []);
  t.deepEqual(topologicalOrder(g), ['start', 'retrieve', 'check', 'not_covered', 'style', 'llm', 'answer']);
});

test('topological order breaks ties by the order nodes are listed', (t) => {
  const g = graph(
    [reply('z_reply', '{{b.output}}{{a.output}}'), text('b', 'b'), text('a', 'a'), start('start', [])],
    [
      { from: 'start', to: 'b' },
      { from: 'start', to: 'a' },
      { from: 'a', to: 'z_reply' },
      { from: 'b', to: 'z_reply' },
    ],
  );
  t.deepEqual(validateGraph(g), []);
  t.deepEqual(topologicalOrder(g), ['start', 'b', 'a', 'z_reply']);
});

test('topological order leaves out nodes on or behind a cycle', (t) => {
  const g = graph([start(), text('a', ''), text('b', ''), reply('answer', '')], [...chain('start', 'a', 'b', 'a'), { from: 'b', to: 'answer' }]);
  t.deepEqual(topologicalOrder(g), ['start']);
});

test('start_count: none', (t) => {
  const faults = validateGraph(graph([retrieve('retrieve', 'q'), reply('answer', 'x')], chain('retrieve', 'answer')));
  t.deepEqual(codes(faults), [['start_count', null]]);
});

test('start_count: two', (t) => {
  const g = graph([start(), start('start_2'), reply('answer', '{{start.question}}')], [...chain('start', 'answer'), ...chain('start_2', 'answer')]);
  t.deepEqual(codes(validateGraph(g)), [['start_count', 'start_2']]);
});

test('duplicate_node_id', (t) => {
  const g = graph([start(), retrieve(), llm(), reply(), text('llm', 'x')], chain('start', 'retrieve', 'llm', 'answer'));
  const faults = validateGraph(g);
  t.deepEqual(codes(faults), [['duplicate_node_id', 'llm']]);
  t.regex(faults[0]?.message ?? '', /'llm'/);
});

test('unknown_node: an edge endpoint that is not a node', (t) => {
  const g = graph([start(), retrieve(), llm(), reply()], [...chain('start', 'retrieve', 'llm', 'answer'), { from: 'llm', to: 'ghost' }]);
  const faults = validateGraph(g);
  t.deepEqual(codes(faults), [['unknown_node', 'ghost']]);
  t.regex(faults[0]?.message ?? '', /edges\[3\].*'ghost'/);
});

test('start_has_incoming', (t) => {
  const g = graph([start(), retrieve(), llm(), reply()], [...chain('start', 'retrieve', 'llm', 'answer'), { from: 'answer', to: 'start' }]);
  const faults = validateGraph(g);
  t.true(faults.some((f) => f.code === 'start_has_incoming' && f.node === 'start'));
});

test('cycle names a node on the cycle', (t) => {
  const g = graph(
    [start(), text('a', '{{start.question}}'), text('b', '{{a.output}}'), text('c', '{{b.output}}'), reply('answer', '{{c.output}}')],
    [...chain('start', 'a', 'b', 'c', 'answer'), { from: 'c', to: 'b' }],
  );
  const faults = validateGraph(g);
  t.deepEqual(codes(faults), [['cycle', 'b']]);
  t.regex(faults[0]?.message ?? '', /'b' → 'c' → 'b'/);
});

test('cycle: an edge from a node to itself', (t) => {
  const g = graph([start(), text('a', ''), reply('answer', '')], [...chain('start', 'a', 'answer'), { from: 'a', to: 'a' }]);
  t.deepEqual(codes(validateGraph(g)), [['cycle', 'a']]);
});

test('unreachable', (t) => {
  const g = graph([start(), retrieve(), llm(), reply(), text('orphan', 'x')], chain('start', 'retrieve', 'llm', 'answer'));
  t.deepEqual(codes(validateGraph(g)), [['unreachable', 'orphan']]);
});

test('no_reply: the only reply cannot be reached', (t) => {
  const g = graph([start(), retrieve(), llm(), reply('answer', 'x')], chain('start', 'retrieve', 'llm'));
  t.deepEqual(codes(validateGraph(g)), [
    ['unreachable', 'answer'],
    ['no_reply', null],
  ]);
});

test('no_reply: no reply at all', (t) => {
  const g = graph([start(), retrieve(), llm()], chain('start', 'retrieve', 'llm'));
  t.deepEqual(codes(validateGraph(g)), [['no_reply', null]]);
});

test('unresolved_reference: a field the node type does not output', (t) => {
  const g = graph([start(), retrieve(), llm('llm', '{{retrieve.contex}}'), reply()], chain('start', 'retrieve', 'llm', 'answer'));
  const faults = validateGraph(g);
  t.deepEqual(codes(faults), [['unresolved_reference', 'llm']]);
  t.is(faults[0]?.message, "node 'llm' references {{retrieve.contex}} in prompt, but knowledge_retrieval outputs context, passages, citations, answerable, coverage, language");
});

test('unresolved_reference: an input start does not declare', (t) => {
  const g = graph([start(), retrieve('retrieve', '{{ start.query }}'), llm(), reply()], chain('start', 'retrieve', 'llm', 'answer'));
  const faults = validateGraph(g);
  t.deepEqual(codes(faults), [['unresolved_reference', 'retrieve']]);
  t.regex(faults[0]?.message ?? '', /start declares inputs question/);
});

test('unresolved_reference: a node that does not exist', (t) => {
  const g = graph([start(), retrieve(), llm(), reply('answer', '{{lm.text}}')], chain('start', 'retrieve', 'llm', 'answer'));
  const faults = validateGraph(g);
  t.deepEqual(codes(faults), [['unresolved_reference', 'answer']]);
  t.regex(faults[0]?.message ?? '', /no node 'lm'/);
});

test('unresolved_reference: a node that runs later or on a parallel branch', (t) => {
  const later = graph([start(), retrieve('retrieve', '{{llm.text}}'), llm(), reply()], chain('start', 'retrieve', 'llm', 'answer'));
  t.deepEqual(codes(validateGraph(later)), [['unresolved_reference', 'retrieve']]);

  const parallel = graph(
    [start(), text('a', 'a'), text('b', '{{a.output}}'), reply('answer', '{{b.output}}')],
    [...chain('start', 'a'), ...chain('start', 'b', 'answer'), { from: 'a', to: 'answer' }],
  );
  const faults = validateGraph(parallel);
  t.deepEqual(codes(faults), [['unresolved_reference', 'b']]);
  t.regex(faults[0]?.message ?? '', /'a' does not run before 'b'/);
});

test('unresolved_reference is checked in every template field', (t) => {
  const g = graph(
    [
      start(),
      { id: 'check', type: 'condition', config: { left: '{{start.question}}', operator: 'equals', right: '{{start.nope}}' } },
      { id: 'llm', type: 'llm', config: { model: 'm', system: '{{start.nope}}', prompt: '{{start.question}}' } },
      reply(),
    ],
    [{ from: 'start', to: 'check' }, { from: 'check', to: 'llm', when: true }, ...chain('llm', 'answer')],
  );
  t.deepEqual(codes(validateGraph(g)), [
    ['unresolved_reference', 'check'],
    ['unresolved_reference', 'llm'],
  ]);
});

test('self_reference', (t) => {
  const g = graph([start(), retrieve(), llm('llm', '{{llm.text}}'), reply()], chain('start', 'retrieve', 'llm', 'answer'));
  t.deepEqual(codes(validateGraph(g)), [['self_reference', 'llm']]);
});

test('condition_edges: an edge out of a condition without when', (t) => {
  const g = graph([start(), retrieve(), condition(), reply('answer', 'ok')], [...chain('start', 'retrieve', 'check'), { from: 'check', to: 'answer' }]);
  const faults = validateGraph(g);
  t.deepEqual(codes(faults), [['condition_edges', 'check']]);
  t.regex(faults[0]?.message ?? '', /when: true or when: false/);
});

test('condition_edges: a condition with no outgoing edge', (t) => {
  const g = graph([start(), retrieve(), condition(), reply('answer', 'x')], [...chain('start', 'retrieve', 'check'), ...chain('retrieve', 'answer')]);
  t.deepEqual(codes(validateGraph(g)), [['condition_edges', 'check']]);
});

test('condition_edges: when on an edge out of another node', (t) => {
  const g = graph([start(), retrieve(), llm(), reply()], [...chain('start', 'retrieve', 'llm'), { from: 'llm', to: 'answer', when: true }]);
  t.deepEqual(codes(validateGraph(g)), [['condition_edges', 'llm']]);
});

test('the schema fills defaults and rejects malformed nodes', (t) => {
  const g = basic();
  t.is(g.nodes[0]?.timeout_ms, 30_000);
  t.like(g.nodes[0], { config: { inputs: [{ required: true }] } });
  const bad: unknown[] = [
    { nodes: [{ id: 'Start', type: 'start', config: { inputs: [] } }], edges: [] },
    { nodes: [{ id: 's', type: 'start', config: { inputs: [] }, timeout_ms: 50 }], edges: [] },
    { nodes: [{ id: 's', type: 'start', config: { inputs: [], extra: 1 } }], edges: [] },
    { nodes: [{ id: 's', type: 'start', config: { inputs: [{ name: '1x', type: 'string' }] } }], edges: [] },
    { nodes: [{ id: 's', type: 'start', config: { inputs: [{ name: 'x', type: 'string' }, { name: 'x', type: 'number' }] } }], edges: [] },
    { nodes: [{ id: 'c', type: 'condition', config: { left: 'a', operator: 'equals' } }], edges: [] },
    { nodes: [{ id: 'r', type: 'knowledge_retrieval', config: { knowledge_base_id: 'kb', query: 'q', top_k: 0 } }], edges: [] },
    { nodes: [{ id: 'l', type: 'llm', config: { model: 'm', prompt: 'p', temperature: 3 } }], edges: [] },
    { nodes: [{ id: 'x', type: 'webhook', config: {} }], edges: [] },
    { nodes: [], edges: [] },
  ];
  for (const value of bad) t.false(WorkflowGraph.safeParse(value).success, JSON.stringify(value));
  t.true(WorkflowGraph.safeParse({ nodes: [{ id: 'c', type: 'condition', config: { left: 'a', operator: 'empty' } }], edges: [] }).success);
});

test('the knowledge bases a graph reads, each once, are what its workflow belongs to', (t) => {
  const graph = knowledgeQaGraph('kb_a');
  const second = { ...graph.nodes[1]!, id: 'again', config: { ...(graph.nodes[1] as { config: object }).config, knowledge_base_id: 'kb_b' } };
  const third = { ...graph.nodes[1]!, id: 'third' };
  t.deepEqual(knowledgeBasesOf({ ...graph, nodes: [...graph.nodes, second, third] } as typeof graph), ['kb_a', 'kb_b']);
  t.deepEqual(knowledgeBasesOf({ ...graph, nodes: graph.nodes.filter((n) => n.type !== 'knowledge_retrieval') }), []);
});
