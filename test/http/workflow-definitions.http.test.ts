import test, { type ExecutionContext } from 'ava';
import { defaultGraph } from '../../src/domain/workflow/default-graph.ts';
import { knowledgeQaGraph } from '../../src/domain/workflow/knowledge-qa.ts';
import { knowledgeBaseCreated } from '../helpers/given-events.ts';
import { httpSpec } from '../helpers/http-spec.ts';

// Workflows as definitions: created, read, listed, replaced, deleted and checked, never run, so no
// worker is needed and each test has an app of its own over in-memory ports, given the knowledge
// base its graphs name. Running them: workflows.http.test.ts.

const KB = 'kb_handbook';
const NOW = '2026-03-01T12:00:00.000Z';
const withKnowledgeBase = (t: ExecutionContext) => httpSpec(t).given(knowledgeBaseCreated({ id: KB, name: 'Handbook' })).app();

test('create from the template, get, list, replace (a new version), delete', async (t) => {
  const server = await withKnowledgeBase(t);
  const created = await server.call('POST', '/v1/workflows', { json: { name: 'QA', template: 'knowledge-qa', knowledge_base_id: KB } });
  t.is(created.status, 201);
  t.is(created.body.object, 'workflow');
  t.is(created.body.version, 1);
  t.deepEqual(created.body.graph.nodes.map((n: { type: string }) => n.type), ['start', 'knowledge_retrieval', 'llm', 'direct_reply']);
  const id = created.body.id;
  t.is((await server.call('GET', `/v1/workflows/${id}`)).body.name, 'QA');
  t.true((await server.call('GET', '/v1/workflows')).body.data.some((w: { id: string }) => w.id === id));
  const replaced = await server.call('PUT', `/v1/workflows/${id}`, { json: { name: 'QA 2', graph: created.body.graph } });
  t.is(replaced.status, 200);
  t.is(replaced.body.version, 2);
  t.is((await server.call('DELETE', `/v1/workflows/${id}`)).body.deleted, true);
  t.is((await server.call('GET', `/v1/workflows/${id}`)).status, 404);
});

test('a faulty graph is 400 naming the node and the problem', async (t) => {
  const server = await withKnowledgeBase(t);
  const { body: wf } = await server.call('POST', '/v1/workflows', { json: { name: 'QA', template: 'knowledge-qa', knowledge_base_id: KB } });
  const graph = structuredClone(wf.graph);
  graph.nodes[2].config.prompt = 'Answer {{retrieve.contex}}';
  const bad = await server.call('POST', '/v1/workflows', { json: { name: 'bad', graph } });
  t.is(bad.status, 400);
  t.is(bad.body.error.param, 'graph.nodes.llm');
  t.regex(bad.body.error.message, /contex/);
  const model = structuredClone(wf.graph);
  model.nodes[2].config.model = 'no-such-model';
  const noModel = await server.call('POST', '/v1/workflows', { json: { name: 'bad', graph: model } });
  t.is(noModel.status, 400);
  t.is(noModel.body.error.param, 'graph.nodes.llm.config.model');
  const missing = await server.call('POST', '/v1/workflows', { json: { name: 'x', template: 'knowledge-qa' } });
  t.is(missing.body.error.param, 'knowledge_base_id');
});

// Told as given events → a request → the response and the events it appended.

const workflowCreated = (id: string, name = 'QA') => ({
  type: 'WorkflowCreated' as const,
  data: { workflow_id: id, workspace_id: 'default', name, description: null, graph: knowledgeQaGraph(KB), version: 1 as const, created_at: NOW },
});

test('given a workflow, replacing its graph appends WorkflowUpdated at version 2', async (t) => {
  const graph = knowledgeQaGraph(KB);
  await httpSpec(t, { now: NOW })
    .given(knowledgeBaseCreated({ id: KB }), workflowCreated('wf_qa'))
    .when({ method: 'PUT', path: '/v1/workflows/wf_qa', json: { name: 'QA 2', graph } })
    .then({
      status: 200,
      bodyMatches: { id: 'wf_qa', object: 'workflow', name: 'QA 2', version: 2 },
      events: [{ type: 'WorkflowUpdated', data: { workflow_id: 'wf_qa', name: 'QA 2', description: null, graph, version: 2, updated_at: NOW } }],
    });
});

test('given a workflow, delete appends WorkflowDeleted and it is gone', async (t) => {
  const spec = httpSpec(t, { now: NOW });
  await spec
    .given(knowledgeBaseCreated({ id: KB }), workflowCreated('wf_old'))
    .when({ method: 'DELETE', path: '/v1/workflows/wf_old' })
    .then({ status: 200, bodyMatches: { id: 'wf_old', deleted: true }, events: [{ type: 'WorkflowDeleted', data: { workflow_id: 'wf_old', deleted_at: NOW } }] });
  await spec.when({ method: 'GET', path: '/v1/workflows/wf_old' }).then({ status: 404, events: [] });
});

test('creating from the template appends WorkflowCreated with its graph; one naming an unknown knowledge base writes nothing', async (t) => {
  const spec = httpSpec(t, { now: NOW });
  await spec
    .given(knowledgeBaseCreated({ id: KB }))
    .when({ method: 'POST', path: '/v1/workflows', json: { name: 'QA', template: 'knowledge-qa', knowledge_base_id: KB } })
    .then({ status: 201, eventsMatch: [{ type: 'WorkflowCreated', data: { workspace_id: 'default', name: 'QA', graph: knowledgeQaGraph(KB), version: 1, created_at: NOW } }] });
  const missing = await spec.when({ method: 'POST', path: '/v1/workflows', json: { name: 'QA', template: 'knowledge-qa', knowledge_base_id: 'kb_nothere' } }).response();
  t.is(missing.status, 404, JSON.stringify(missing.body));
  t.deepEqual(missing.events, []);
});

test('created with neither a graph nor a template, a workflow starts from the default graph: a start node and a reply, saved as version 1', async (t) => {
  const { body } = await httpSpec(t, { now: NOW })
    .when({ method: 'POST', path: '/v1/workflows', json: { name: 'Blank' } })
    .then({
      status: 201,
      bodyMatches: { object: 'workflow', name: 'Blank', version: 1 },
      eventsMatch: [{ type: 'WorkflowCreated', data: { name: 'Blank', graph: defaultGraph() } }],
    });
  t.deepEqual(body.graph, defaultGraph());
  t.deepEqual(defaultGraph().nodes.map((n) => `${n.id}:${n.type}`), ['start:start', 'reply:direct_reply']);
  t.deepEqual(defaultGraph().nodes[0]!.config, { inputs: [{ name: 'question', type: 'string', required: true }] });
});
