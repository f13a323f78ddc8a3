import test, { type ExecutionContext } from 'ava';
import { knowledgeQaGraph } from '../../src/domain/workflow/knowledge-qa.ts';
import { knowledgeBaseCreated } from '../helpers/given-events.ts';
import { httpSpec } from '../helpers/http-spec.ts';

// A workflow's draft and published versions, its ETag and If-Match, and the canvas's checks
// before saving: definitions only (no run), each test on an app of its own. Running a version:
// workflow-debugger.http.test.ts.

const KB = 'kb_handbook';
const withKnowledgeBase = (t: ExecutionContext) => httpSpec(t).given(knowledgeBaseCreated({ id: KB, name: 'Handbook' })).app();
type Server = Awaited<ReturnType<typeof withKnowledgeBase>>;

async function created(server: Server) {
  const reply = await server.call('POST', '/v1/workflows', { json: { name: 'QA', template: 'knowledge-qa', knowledge_base_id: KB } });
  if (reply.status !== 201) throw new Error(`${reply.status} ${JSON.stringify(reply.body)}`);
  return reply;
}

test('the ETag is the draft’s version; a save on a stale one is refused and changes nothing', async (t) => {
  const server = await withKnowledgeBase(t);
  const first = await created(server);
  const id = first.body.id;
  t.is(first.headers.get('etag'), '"1"');
  t.is((await server.call('GET', `/v1/workflows/${id}`)).headers.get('etag'), '"1"');
  const graph = first.body.graph;
  const mine = await server.call('PUT', `/v1/workflows/${id}`, { json: { name: 'Mine', graph }, headers: { 'if-match': '"1"' } });
  t.is(mine.status, 200);
  t.is(mine.headers.get('etag'), '"2"');
  // Someone else edited version 1 too: their save would overwrite version 2 unseen.
  const theirs = await server.call('PUT', `/v1/workflows/${id}`, { json: { name: 'Theirs', graph }, headers: { 'if-match': '"1"' } });
  t.is(theirs.status, 409);
  t.is(theirs.body.error.code, 'concurrent_modification');
  t.regex(theirs.body.error.message, /version 2, not 1/);
  const now = await server.call('GET', `/v1/workflows/${id}`);
  t.is(now.body.name, 'Mine');
  t.is(now.body.version, 2);
  // Without If-Match the last save wins, as before.
  t.is((await server.call('PUT', `/v1/workflows/${id}`, { json: { name: 'Anyone', graph } })).status, 200);
  t.is((await server.call('PUT', `/v1/workflows/${id}`, { json: { name: 'x', graph }, headers: { 'if-match': 'v3' } })).body.error.code, 'invalid_if_match');
});

test('publish marks the draft’s version; versions lists every save with when it was published', async (t) => {
  const server = await withKnowledgeBase(t);
  const { body: wf } = await created(server);
  t.is(wf.published_version, null);
  const published = await server.call('POST', `/v1/workflows/${wf.id}/publish`);
  t.is(published.status, 200);
  t.is(published.body.published_version, 1);
  t.truthy(published.body.published_at);
  const again = await server.call('POST', `/v1/workflows/${wf.id}/publish`);
  t.is(again.body.published_at, published.body.published_at, 'publishing the same version again records nothing');
  const edited = await server.call('PUT', `/v1/workflows/${wf.id}`, { json: { name: 'QA 2', graph: wf.graph } });
  t.is(edited.body.version, 2);
  t.is(edited.body.published_version, 1, 'an edit is a draft: the published version stays');
  const versions = await server.call('GET', `/v1/workflows/${wf.id}/versions`);
  t.deepEqual(
    versions.body.data.map((v: { version: number; name: string; published_at: string | null }) => [v.version, v.name, v.published_at !== null]),
    [
      [2, 'QA 2', false],
      [1, 'QA', true],
    ],
  );
  t.deepEqual(versions.body.data[1].graph, wf.graph);
});

test('validate reports every fault at once, each on its node, before anything is saved', async (t) => {
  const server = await withKnowledgeBase(t);
  const graph = knowledgeQaGraph(KB);
  t.deepEqual((await server.call('POST', '/v1/workflows/validate', { json: { graph } })).body, { object: 'workflow_validation', valid: true, errors: [] });
  const broken = {
    nodes: graph.nodes.map((node) => (node.id === 'llm' ? { ...node, config: { ...node.config, prompt: '{{nowhere.text}}' } } : node)),
    edges: graph.edges.filter((edge) => edge.to !== 'answer'),
  };
  const faults = (await server.call('POST', '/v1/workflows/validate', { json: { graph: broken } })).body;
  t.false(faults.valid);
  t.deepEqual(
    faults.errors.map((e: { node_id: string | null; code: string }) => [e.node_id, e.code]),
    [
      ['answer', 'invalid_graph_unreachable'],
      [null, 'invalid_graph_no_reply'],
      ['llm', 'invalid_graph_unresolved_reference'],
      ['answer', 'invalid_graph_unresolved_reference'],
    ],
  );
  // A config the schema refuses is named by node id, not by its place in the list.
  const badConfig = { ...graph, nodes: graph.nodes.map((node) => (node.id === 'retrieve' ? { ...node, config: { ...node.config, top_k: 'ten' } } : node)) };
  const schema = (await server.call('POST', '/v1/workflows/validate', { json: { graph: badConfig } })).body;
  t.is(schema.errors[0].node_id, 'retrieve');
  t.regex(schema.errors[0].param, /^graph\.nodes\.retrieve\./);
  // What exists only on the server: a model that is not there is a fault; a knowledge base that is
  // not there answers 404 as saving does (the access rule of every route), naming the node's field.
  const noModel = { ...graph, nodes: graph.nodes.map((node) => (node.id === 'llm' ? { ...node, config: { ...node.config, model: 'no-such-model' } } : node)) };
  const model = (await server.call('POST', '/v1/workflows/validate', { json: { graph: noModel } })).body;
  t.deepEqual(model.errors.map((e: { node_id: string; code: string }) => [e.node_id, e.code]), [['llm', 'model_not_found']]);
  const missing = await server.call('POST', '/v1/workflows/validate', { json: { graph: knowledgeQaGraph('kb_missing') } });
  t.is(missing.status, 404);
  t.is(missing.body.error.param, 'graph.nodes.retrieve.config.knowledge_base_id');
  t.is((await server.call('GET', '/v1/workflows')).body.data.length, 0, 'nothing saved');
});

test('templates: http-lookup and summarise-each are saved as valid graphs and say what they need', async (t) => {
  const server = await withKnowledgeBase(t);
  const lookup = await server.call('POST', '/v1/workflows', { json: { name: 'Orders', template: 'http-lookup', knowledge_base_id: KB, lookup_url: 'https://orders.example.com/lookup' } });
  t.is(lookup.status, 201, JSON.stringify(lookup.body));
  t.deepEqual(lookup.body.graph.nodes.map((n: { type: string }) => n.type), ['start', 'code', 'http_request', 'knowledge_retrieval', 'llm', 'direct_reply']);
  const each = await server.call('POST', '/v1/workflows', { json: { name: 'Digest', template: 'summarise-each', knowledge_base_id: KB } });
  t.is(each.status, 201, JSON.stringify(each.body));
  t.deepEqual(each.body.graph.nodes.map((n: { type: string }) => n.type), ['start', 'knowledge_retrieval', 'code', 'iteration', 'code', 'direct_reply']);
  const needs = await server.call('POST', '/v1/workflows', { json: { name: 'Orders', template: 'http-lookup', knowledge_base_id: KB } });
  t.is(needs.status, 400);
  t.is(needs.body.error.param, 'lookup_url');
  const stray = await server.call('POST', '/v1/workflows', { json: { name: 'QA', template: 'knowledge-qa', knowledge_base_id: KB, lookup_url: 'https://x.example' } });
  t.is(stray.body.error.param, 'lookup_url');
});
