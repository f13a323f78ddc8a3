import test from 'ava';
import { WorkflowGraph, type WorkflowGraphInput } from '../../schemas/workflow.ts';
import { createTextAnalyzer } from '../../src/adapters/text/analyzer.ts';
import { createHashingEmbedder } from '../../src/adapters/local/hashing-embedder.ts';
import { textSimilarity } from '../../src/app/workflow-engine/similarity.ts';
import { knowledgeBasesOf, validateGraph } from '../../src/domain/workflow/graph.ts';
import { intentRoutingGraph } from '../../src/domain/workflow/intent-routing.ts';
import { classNamed } from '../../src/domain/workflow/nodes/classify-by-prompt.ts';
import { nodeType } from '../../src/domain/workflow/nodes/index.ts';
import { pickBySimilarity } from '../../src/domain/workflow/nodes/question-classifier.ts';
import { NodeFailure, type ChatCompleter, type NodeServices, type RunScope } from '../../src/domain/workflow/nodes/node-type.ts';
import { nodeServices } from '../helpers/node-services.ts';
import { runOutputsOf } from '../../src/domain/workflow/walk.ts';

const analyzer = createTextAnalyzer();
const embedder = createHashingEmbedder({ analyzer });
const scope = (outputs: Record<string, Record<string, unknown>>): RunScope => ({ workspaceId: 'ws_1', inputs: {}, outputs: new Map(Object.entries(outputs)), nodeTypes: new Map() });
const signal = new AbortController().signal;
const offline: NodeServices = nodeServices({
  similarity: async (query, texts) => textSimilarity({ analyzer, embedder }, query, texts),
  runSubgraph: async () => ({}),
});
const run = async (type: string, config: unknown, outputs: Record<string, Record<string, unknown>>, services = offline) =>
  nodeType(type).run({ config: nodeType(type).config.parse(config), scope: scope(outputs), services, signal });

const classes = [
  { name: 'billing', description: 'Invoices, payments, refunds and prices', examples: ['Why was my card charged twice?'] },
  { name: 'technical', description: 'Installing, configuring and troubleshooting the software', examples: ['The app crashes on startup'] },
];

test('question_classifier offline: the class whose description or examples the question is closest to', async (t) => {
  const asked = (question: string) => run('question_classifier', { classes }, { start: { question } });
  t.like(await asked('How do I get a refund for my last invoice?'), { class: 'billing' });
  t.like(await asked('The software crashes when I install the update'), { class: 'technical' });
  const { scores } = (await asked('my card was charged twice')) as { scores: Record<string, number> };
  t.true(scores.billing! > scores.technical!, JSON.stringify(scores));
  const none = pickBySimilarity(classes, [['a'], ['b', 'c']], [0, 0, 0]);
  t.deepEqual(none, { class: 'billing', scores: { billing: 0, technical: 0 } }, 'a question like no class goes to the first');
  t.like(pickBySimilarity(classes, [['a'], ['b', 'c']], [0.2, 0.1, 0.5]), { class: 'technical', scores: { technical: 0.5 } }, 'a class scores its best text');
});

test('question_classifier with a provider model: by prompt, its JSON answer checked against the classes', async (t) => {
  const asked: unknown[] = [];
  const model = (content: string): ChatCompleter => ({ passesOptions: true, complete: async (request) => (asked.push(request.options), { content }) });
  const withModel = (content: string) => ({ ...offline, chatModel: async () => model(content) });
  const config = { classes, model: 'openai/gpt-x', query: 'charged twice' };
  t.deepEqual(await run('question_classifier', config, {}, withModel('{"class": "Technical"}')), { class: 'technical', scores: { billing: 0, technical: 1 } });
  t.like(asked[0], { response_format: { type: 'json_schema', json_schema: { schema: { properties: { class: { enum: ['billing', 'technical'] } } } } } });
  const wrong = run('question_classifier', config, {}, withModel('{"class": "sales"}'));
  t.like(await t.throwsAsync(wrong, { instanceOf: NodeFailure }), { code: 'model_bad_response' });
  const none = run('question_classifier', config, {});
  t.like(await t.throwsAsync(none, { instanceOf: NodeFailure }), { code: 'model_not_found' });
  t.is(classNamed('billing.', ['billing']), 'billing', 'a bare name is read too');
});

test('question_classifier with the offline chat model classifies by similarity, not by its prose', async (t) => {
  const extractive: ChatCompleter = { passesOptions: false, complete: async () => ({ content: 'not JSON at all' }) };
  const services = { ...offline, chatModel: async () => extractive };
  t.like(await run('question_classifier', { classes, model: 'kbqa-extractive', query: 'refund my invoice' }, {}, services), { class: 'billing' });
});

test('question_classifier config: at least two classes, each named once', (t) => {
  const parse = (config: unknown) => nodeType('question_classifier').config.safeParse(config);
  t.false(parse({ classes: classes.slice(0, 1) }).success);
  const twice = parse({ classes: [classes[0], { ...classes[1], name: 'Billing' }] });
  t.false(twice.success);
  t.deepEqual(twice.error?.issues[0]?.path, ['classes', 1, 'name']);
  t.is((parse({ classes }).data as { query: string }).query, '{{start.question}}', 'the question by default');
});

type NodeInput = WorkflowGraphInput['nodes'][number];
const start: NodeInput = { id: 'start', type: 'start', config: { inputs: [{ name: 'question', type: 'string' }] } };
const classify: NodeInput = { id: 'route', type: 'question_classifier', config: { classes } };
const reply = (id: string, template: string): NodeInput => ({ id, type: 'direct_reply', config: { template } });
const graph = (nodes: NodeInput[], edges: WorkflowGraphInput['edges']) => WorkflowGraph.parse({ nodes, edges });

test('edges out of a question_classifier carry a class name as when; a wrong or missing one is named', (t) => {
  const nodes = [start, classify, reply('a', 'billing'), reply('b', 'technical')];
  const edge = (to: string, when?: string | boolean) => ({ from: 'route', to, ...(when !== undefined && { when }) });
  t.deepEqual(validateGraph(graph(nodes, [{ from: 'start', to: 'route' }, edge('a', 'billing'), edge('b', 'technical')])), []);
  const faults = validateGraph(graph(nodes, [{ from: 'start', to: 'route' }, edge('a', 'sales'), edge('b', true)]));
  t.deepEqual(faults.map((f) => [f.code, f.node]), [['condition_edges', 'route'], ['condition_edges', 'route']]);
  t.regex(faults[0]!.message, /when: "sales", which question_classifier 'route' never gives; use when: "billing" or when: "technical"/);
  const bare = validateGraph(graph(nodes, [{ from: 'start', to: 'route' }, edge('a'), edge('b', 'technical')]));
  t.regex(bare[0]!.message, /must carry when: "billing" or when: "technical"/);
  const onCondition = graph([start, { id: 'c', type: 'condition', config: { left: '{{start.question}}', operator: 'empty' } }, reply('a', 'x')], [{ from: 'start', to: 'c' }, { from: 'c', to: 'a', when: 'yes' }]);
  t.regex(validateGraph(onCondition)[0]!.message, /use when: true or when: false/);
});

test('variable_aggregator: the first value that is not empty, e.g. from the branch that ran', async (t) => {
  const config = { values: ['{{a.answer}}', '{{b.answer}}', 'fallback'] };
  t.deepEqual(await run('variable_aggregator', config, { b: { answer: 'from b' } }), { output: 'from b' });
  t.deepEqual(await run('variable_aggregator', config, {}), { output: 'fallback' });
  t.deepEqual(await run('variable_aggregator', { values: ['{{a.answer}}', '  '] }, {}), { output: '' });
  t.false(nodeType('variable_aggregator').config.safeParse({ values: [] }).success);
});

test('variable_aggregator: a reference in a value is checked, named by its position', (t) => {
  const agg: NodeInput = { id: 'join', type: 'variable_aggregator', config: { values: ['{{start.question}}', '{{nowhere.text}}'] } };
  const faults = validateGraph(graph([start, agg, reply('a', '{{join.output}}')], [{ from: 'start', to: 'join' }, { from: 'join', to: 'a' }]));
  t.deepEqual(faults.map((f) => [f.code, f.node]), [['unresolved_reference', 'join']]);
  t.regex(faults[0]!.message, /in values\.1/);
});

test('end: named outputs, a lone reference keeping its value, become the run outputs; an end alone is a reply', async (t) => {
  const config = { outputs: { summary: 'Q: {{start.question}}', tags: '{{start.tags}}' } };
  const outputs = await run('end', config, { start: { question: 'why', tags: ['a', 'b'] } });
  t.deepEqual(outputs, { summary: 'Q: why', tags: ['a', 'b'] });
  const end: NodeInput = { id: 'done', type: 'end', config };
  const g = graph([{ ...start, config: { inputs: [{ name: 'question', type: 'string' }, { name: 'tags', type: 'object', required: false }] } }, end], [{ from: 'start', to: 'done' }]);
  t.deepEqual(validateGraph(g), []);
  t.deepEqual(runOutputsOf(g, new Map([['start', {}], ['done', outputs]])), outputs);
  t.false(nodeType('end').config.safeParse({ outputs: {} }).success);
  t.false(nodeType('end').config.safeParse({ outputs: { '1x': 'a' } }).success);
  const bad = validateGraph(graph([start, { id: 'done', type: 'end', config: { outputs: { x: '{{start.nope}}' } } }], [{ from: 'start', to: 'done' }]));
  t.regex(bad[0]!.message, /node 'done' references \{\{start\.nope\}\} in outputs\.x/);
});

test('runOutputsOf: a reply and an end together give the answer and the named outputs', (t) => {
  const g = graph([start, reply('a', 'x'), { id: 'done', type: 'end', config: { outputs: { n: '1' } } }], [{ from: 'start', to: 'a' }, { from: 'a', to: 'done' }]);
  t.deepEqual(runOutputsOf(g, new Map([['start', {}], ['a', { answer: 'x' }], ['done', { n: '1' }]])), { answer: 'x', n: '1' });
  t.is(runOutputsOf(g, new Map([['start', {}]])), undefined);
});

test('the intent-routing template: a valid graph, one class and branch per knowledge base, names made unique', (t) => {
  const g = intentRoutingGraph([
    { knowledgeBaseId: 'kb_a', name: 'Docs', description: 'Product manuals' },
    { knowledgeBaseId: 'kb_b', name: 'docs', description: null },
  ]);
  t.deepEqual(validateGraph(g), []);
  t.deepEqual(WorkflowGraph.parse(g), g);
  t.like(g.nodes[1], { type: 'question_classifier', config: { classes: [{ name: 'Docs', description: 'Product manuals' }, { name: 'docs (2)', description: 'docs' }] } });
  t.deepEqual(g.edges.filter((e) => e.from === 'route').map((e) => [e.to, e.when]), [['retrieve_1', 'Docs'], ['retrieve_2', 'docs (2)']]);
  t.deepEqual(knowledgeBasesOf(g), ['kb_a', 'kb_b']);
});
