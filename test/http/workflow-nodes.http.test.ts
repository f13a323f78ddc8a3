import test from 'ava';
import { sampleKnowledgeBase, type SampleKb } from '../helpers/knowledge-base.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// The node types beyond the first six, each created and run through the API with the offline models.

let server: TestServer;
let kb: SampleKb;

test.before(async () => {
  server = await startServer();
  kb = await sampleKnowledgeBase(server);
});
test.after.always(() => server?.close());

type Json = Record<string, any>;
const create = async (graph: Json) => server.call('POST', '/v1/workflows', { json: { name: 'nodes', graph } });
const runBlocking = async (graph: Json, inputs: Json) => {
  const created = await create(graph);
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return (await server.call('POST', `/v1/workflows/${created.body.id}/run`, { json: { inputs } })).body;
};
const ran = (run: Json) => run.node_runs.filter((n: Json) => n.status === 'succeeded').map((n: Json) => n.node_id);
const question = { id: 'start', type: 'start', config: { inputs: [{ name: 'question', type: 'string' }] } };

const routing = () => ({
  nodes: [
    question,
    {
      id: 'route',
      type: 'question_classifier',
      config: {
        classes: [
          { name: 'geology', description: 'Volcanoes, lava, rocks and the Earth', examples: ['Is Mount Erebus active?'] },
          { name: 'cooking', description: 'Bread, baking, recipes and food', examples: ['How do I feed a sourdough starter?'] },
        ],
      },
    },
    { id: 'geo', type: 'knowledge_retrieval', config: { knowledge_base_id: kb.kbId, query: '{{start.question}}' } },
    { id: 'geo_llm', type: 'llm', config: { model: 'kbqa-extractive', system: '{{geo.context}}', prompt: '{{start.question}}' } },
    { id: 'cook', type: 'direct_reply', config: { template: 'Ask the baker about: {{start.question}}' } },
    { id: 'join', type: 'variable_aggregator', config: { values: ['{{geo_llm.text}}', 'no geology answer'] } },
    { id: 'answer', type: 'direct_reply', config: { template: '{{join.output}}' } },
  ],
  edges: [
    { from: 'start', to: 'route' },
    { from: 'route', to: 'geo', when: 'geology' },
    { from: 'route', to: 'cook', when: 'cooking' },
    { from: 'geo', to: 'geo_llm' },
    { from: 'geo_llm', to: 'join' },
    { from: 'join', to: 'answer' },
  ],
});

test('question_classifier routes by intent offline; variable_aggregator joins the branch that ran', async (t) => {
  const geology = await runBlocking(routing(), { question: 'Since when is the lava lake of the volcano active?' });
  t.is(geology.status, 'succeeded', JSON.stringify(geology.error));
  t.is(geology.node_runs.find((n: Json) => n.node_id === 'route').outputs.class, 'geology');
  t.deepEqual(ran(geology), ['start', 'route', 'geo', 'geo_llm', 'join', 'answer']);
  t.regex(geology.outputs.answer, /1972/);
  const cooking = await runBlocking(routing(), { question: 'Why does my sourdough bread rise?' });
  t.deepEqual(ran(cooking), ['start', 'route', 'cook']);
  t.is(cooking.outputs.answer, 'Ask the baker about: Why does my sourdough bread rise?');
});

test('a question_classifier edge naming no class is 400, naming the node', async (t) => {
  const graph = routing();
  graph.edges[2] = { from: 'route', to: 'cook', when: 'baking' };
  const bad = await create(graph);
  t.is(bad.status, 400);
  t.is(bad.body.error.param, 'graph.nodes.route');
  t.regex(bad.body.error.message, /when: "baking"/);
});

test('parameter_extractor reads fields offline and end makes them the run outputs', async (t) => {
  const schema = {
    type: 'object',
    properties: { email: { type: 'string', format: 'email' }, amount: { type: 'number' }, date: { type: 'string', format: 'date' }, plan: { type: 'string', enum: ['Basic', 'Pro'] } },
    required: ['email'],
  };
  const graph = {
    nodes: [
      question,
      { id: 'extract', type: 'parameter_extractor', config: { schema } },
      { id: 'done', type: 'end', config: { outputs: { data: '{{extract.data}}', missing: '{{extract.missing}}', contact: 'Mail {{extract.email}}' } } },
    ],
    edges: [
      { from: 'start', to: 'extract' },
      { from: 'extract', to: 'done' },
    ],
  };
  const run = await runBlocking(graph, { question: 'Refund €49.90 for my pro plan bought on 3 May 2026, write to kim@example.com' });
  t.is(run.status, 'succeeded', JSON.stringify(run.error));
  t.deepEqual(run.outputs, {
    data: { email: 'kim@example.com', amount: 49.9, date: '2026-05-03', plan: 'Pro' },
    missing: [],
    contact: 'Mail kim@example.com',
  });
  const partial = await runBlocking(graph, { question: 'kim@example.com here' });
  t.deepEqual(partial.outputs.missing, ['amount', 'date', 'plan']);
});

test('a parameter_extractor schema the node cannot fill is 400 naming the field', async (t) => {
  const bad = await create({
    nodes: [question, { id: 'extract', type: 'parameter_extractor', config: { schema: { type: 'object', properties: { when: { type: 'number', format: 'date' } } } } }],
    edges: [{ from: 'start', to: 'extract' }],
  });
  t.is(bad.status, 400);
  t.regex(bad.body.error.param ?? '', /format/);
});

const perQuestion = (extra: Json = {}): Json => ({
  nodes: [
    { id: 'start', type: 'start', config: { inputs: [{ name: 'questions', type: 'string' }] } },
    {
      id: 'each',
      type: 'iteration',
      config: {
        items: '{{start.questions}}',
        parallelism: 2,
        graph: {
          nodes: [
            { id: 'start', type: 'start', config: { inputs: [{ name: 'item', type: 'string' }, { name: 'index', type: 'number' }] } },
            { id: 'find', type: 'knowledge_retrieval', config: { knowledge_base_id: kb.kbId, query: '{{start.item}}' } },
            { id: 'llm', type: 'llm', config: { model: 'kbqa-extractive', system: '{{find.context}}', prompt: '{{start.item}}' } },
            { id: 'done', type: 'end', config: { outputs: { n: '{{start.index}}', answer: '{{llm.text}}' } } },
            ...(extra.nodes ?? []),
          ],
          edges: [
            { from: 'start', to: 'find' },
            { from: 'find', to: 'llm' },
            { from: 'llm', to: 'done' },
          ],
        },
      },
    },
    { id: 'out', type: 'end', config: { outputs: { results: '{{each.results}}' } } },
  ],
  edges: [
    { from: 'start', to: 'each' },
    { from: 'each', to: 'out' },
  ],
});

test('iteration runs its sub-graph once per item and outputs the results in order', async (t) => {
  const questions = ['How long is each Zephyr-9 blade?', 'What makes sourdough bread rise?', 'When did the Erebus lava lake become active?'];
  const run = await runBlocking(perQuestion(), { questions: JSON.stringify(questions) });
  t.is(run.status, 'succeeded', JSON.stringify(run.error));
  const results = run.outputs.results as Json[];
  t.deepEqual(results.map((r) => r.n), [0, 1, 2]);
  t.regex(results[0]!.answer, /78/);
  t.regex(results[1]!.answer, /yeast/);
  t.regex(results[2]!.answer, /1972/);
  const notAList = await runBlocking(perQuestion(), { questions: 'blades?' });
  t.is(notAList.status, 'failed');
  t.like(notAList.error, { code: 'invalid_items', node_id: 'each' });
});

test('a start input of type array[string] takes the list itself, and an iteration goes over it', async (t) => {
  const graph = perQuestion();
  graph.nodes[0] = { id: 'start', type: 'start', config: { inputs: [{ name: 'questions', type: 'array[string]' }] } };
  const run = await runBlocking(graph, { questions: ['How long is each Zephyr-9 blade?', 'What makes sourdough bread rise?'] });
  t.is(run.status, 'succeeded', JSON.stringify(run.error));
  t.deepEqual((run.outputs.results as Json[]).map((r) => r.n), [0, 1]);
  t.regex((run.outputs.results as Json[])[0]!.answer, /78/);
  const created = await create(graph);
  const refused = await server.call('POST', `/v1/workflows/${created.body.id}/run`, { json: { inputs: { questions: ['fine', 7] } } });
  t.is(refused.status, 400);
  t.like(refused.body.error, { param: 'inputs.questions' });
  t.regex(refused.body.error.message, /every item is a string/);
});

test('an iteration sub-graph is checked on save: its faults and unknown models are 400 naming the iteration', async (t) => {
  const lost = await create(perQuestion({ nodes: [{ id: 'lost', type: 'template', config: { template: 'x' } }] }));
  t.is(lost.status, 400);
  t.is(lost.body.error.param, 'graph.nodes.each');
  t.regex(lost.body.error.message, /sub-graph of iteration 'each': node 'lost' cannot be reached/);
  const graph = perQuestion();
  graph.nodes[1].config.graph.nodes[2].config.model = 'no-such-model';
  const noModel = await create(graph);
  t.is(noModel.status, 400);
  t.is(noModel.body.error.code, 'model_not_found');
  t.is(noModel.body.error.param, 'graph.nodes.each.config.graph.nodes.llm.config.model');
});

test('template intent-routing: a classifier over the knowledge bases named, each answered from its own', async (t) => {
  const other = (await server.call('POST', '/v1/knowledge-bases', { json: { name: 'Bakery', description: 'Bread, baking, recipes and food' } })).body;
  const created = await server.call('POST', '/v1/workflows', { json: { name: 'routing', template: 'intent-routing', knowledge_base_ids: [kb.kbId, other.id] } });
  t.is(created.status, 201, JSON.stringify(created.body));
  t.deepEqual(created.body.graph.nodes.map((n: Json) => n.type), ['start', 'question_classifier', 'knowledge_retrieval', 'llm', 'knowledge_retrieval', 'llm', 'variable_aggregator', 'direct_reply']);
  const run = (await server.call('POST', `/v1/workflows/${created.body.id}/run`, { json: { inputs: { question: 'How do I bake bread with a recipe?' } } })).body;
  t.is(run.status, 'succeeded', JSON.stringify(run.error));
  t.true(ran(run).includes('retrieve_2'), JSON.stringify(ran(run)));
  t.false(ran(run).includes('retrieve_1'));
  const missing = await server.call('POST', '/v1/workflows', { json: { name: 'r', template: 'intent-routing', knowledge_base_ids: [kb.kbId, 'kb_nope'] } });
  t.is(missing.status, 404);
  t.is(missing.body.error.param, 'knowledge_base_ids.1');
  const stray = await server.call('POST', '/v1/workflows', { json: { name: 'r', template: 'intent-routing', knowledge_base_id: kb.kbId } });
  t.is(stray.status, 400);
});
