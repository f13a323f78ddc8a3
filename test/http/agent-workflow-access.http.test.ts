import test from 'ava';
import { knowledgeQaGraph } from '../../src/domain/workflow/knowledge-qa.ts';
import { sampleKnowledgeBase, type SampleKb } from '../helpers/knowledge-base.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Issue 42, items 6, 7, 8, 11 and 17: what a key limited to knowledge base A meets around workflow
// and agent versions, workflow-backed agents and the agents named by a 409. A is `mine`, B the
// sample knowledge base (with a PDF whose pages have images).

let server: TestServer;
let sample: SampleKb;
let mine: string;
let limited: string;

test.before(async () => {
  server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0', KBQA_LANDING_MESSAGES_PER_MINUTE: '0' });
  sample = await sampleKnowledgeBase(server);
  mine = (await server.call('POST', '/v1/knowledge-bases', { json: { name: 'mine' } })).body.id;
  const doc = await server.call('POST', `/v1/knowledge-bases/${mine}/documents`, { json: { name: 'notes.md', text: '# Notes\n\nThe Zephyr-9 blade notes live in the archive room.\n' } });
  for (let status = doc.body.data[0].status; status !== 'ready'; await new Promise((r) => setTimeout(r, 20))) {
    status = (await server.call('GET', `/v1/knowledge-bases/${mine}/documents/${doc.body.data[0].id}`)).body.status;
  }
  limited = (await server.call('POST', '/v1/api-keys', { json: { name: 'limited to mine', scopes: ['write'], knowledge_base_ids: [mine] } })).body.secret;
});
test.after.always(() => server?.close());

const ok = async (method: string, path: string, json?: unknown, key?: string) => {
  const res = await server.call(method, path, { json, key });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};
const eventCount = async () => (await server.runtime.store.readAll({ from: 0n })).length;

/** A workflow saved first over `first` (named after it), then over `then`; `publishFirst`: version 1 is the published one. */
async function movedWorkflow(first: string, then: string, publishFirst: boolean): Promise<string> {
  const wf = await ok('POST', '/v1/workflows', { name: 'reads the sample (secret-name)', template: 'knowledge-qa', knowledge_base_id: first });
  if (publishFirst) await ok('POST', `/v1/workflows/${wf.id}/publish`);
  await ok('PUT', `/v1/workflows/${wf.id}`, { name: 'reads mine', graph: knowledgeQaGraph(then) });
  return wf.id;
}

test.serial('6: a workflow’s and an agent’s versions show a limited key only those naming its knowledge bases', async (t) => {
  const wf = await movedWorkflow(sample.kbId, mine, false);
  const seen = await server.call('GET', `/v1/workflows/${wf}/versions`, { key: limited });
  t.is(seen.status, 200);
  t.deepEqual(seen.body.data.map((v: { version: number }) => v.version), [2]);
  t.false(JSON.stringify(seen.body).includes('secret-name'));
  t.false(JSON.stringify(seen.body).includes(sample.kbId));
  t.deepEqual((await ok('GET', `/v1/workflows/${wf}/versions`)).data.map((v: { version: number }) => v.version), [2, 1], 'an unlimited key sees them all');

  const agent = await ok('POST', '/v1/agents', { name: 'Sample helper (secret-name)', model: 'kbqa-extractive', knowledge_base_ids: [sample.kbId], instructions: 'Secret-name instructions.' });
  await ok('POST', `/v1/agents/${agent.id}/publish`);
  await ok('PATCH', `/v1/agents/${agent.id}`, { name: 'Mine helper', knowledge_base_ids: [mine], instructions: null });
  await ok('POST', `/v1/agents/${agent.id}/publish`);
  const versions = await server.call('GET', `/v1/agents/${agent.id}/versions?order=asc`, { key: limited });
  t.is(versions.status, 200);
  t.deepEqual(versions.body.data.map((v: { version: number }) => v.version), [2]);
  t.false(JSON.stringify(versions.body).includes('secret-name'));
  t.false(JSON.stringify(versions.body).toLowerCase().includes('secret-name'));
  t.deepEqual((await ok('GET', `/v1/agents/${agent.id}/versions?order=asc`)).data.map((v: { version: number }) => v.version), [1, 2]);
});

test.serial('7: publishing or deleting checks every version it touches: the published one, and for a delete all of them; nothing is written on a refusal', async (t) => {
  const published = await movedWorkflow(sample.kbId, mine, true);
  t.is((await server.call('GET', `/v1/workflows/${published}`, { key: limited })).status, 200, 'the draft reads only mine');
  const before = await eventCount();
  const publish = await server.call('POST', `/v1/workflows/${published}/publish`, { key: limited });
  t.is(publish.status, 403);
  t.is(publish.body.error.code, 'knowledge_base_not_allowed');
  t.true(publish.body.error.message.includes(sample.kbId));
  t.is((await server.call('DELETE', `/v1/workflows/${published}`, { key: limited })).status, 403);
  t.is(await eventCount(), before, 'nothing appended');
  t.is((await ok('GET', `/v1/workflows/${published}`)).published_version, 1);

  // Version 1 was never published: a delete still touches it.
  const older = await movedWorkflow(sample.kbId, mine, false);
  t.is((await server.call('DELETE', `/v1/workflows/${older}`, { key: limited })).status, 403);
  t.is((await server.call('GET', `/v1/workflows/${older}`)).status, 200);
  t.is((await server.call('POST', `/v1/workflows/${older}/publish`, { key: limited })).status, 200, 'publishing replaces no version: only the draft counts');

  // Its own workflow, every version over mine: both allowed.
  const own = await ok('POST', '/v1/workflows', { name: 'own', template: 'knowledge-qa', knowledge_base_id: mine }, limited);
  await ok('POST', `/v1/workflows/${own.id}/publish`, undefined, limited);
  await ok('PUT', `/v1/workflows/${own.id}`, { name: 'own 2', graph: knowledgeQaGraph(mine) }, limited);
  t.is((await server.call('POST', `/v1/workflows/${own.id}/publish`, { key: limited })).status, 200);
  t.is((await server.call('DELETE', `/v1/workflows/${own.id}`, { key: limited })).status, 200);

  // An agent: deleting it touches every version it published.
  const agent = await ok('POST', '/v1/agents', { name: 'moved', model: 'kbqa-extractive', knowledge_base_ids: [sample.kbId] });
  await ok('POST', `/v1/agents/${agent.id}/publish`);
  await ok('PATCH', `/v1/agents/${agent.id}`, { knowledge_base_ids: [mine] });
  await ok('POST', `/v1/agents/${agent.id}/publish`);
  t.is((await server.call('GET', `/v1/agents/${agent.id}`, { key: limited })).status, 200);
  t.is((await server.call('DELETE', `/v1/agents/${agent.id}`, { key: limited })).status, 403);
  t.is((await server.call('GET', `/v1/agents/${agent.id}`)).status, 200);
});

test.serial('8: a limited key cannot point an agent at a workflow, and is refused before anything is written', async (t) => {
  const wf = await ok('POST', '/v1/workflows', { name: 'own', template: 'knowledge-qa', knowledge_base_id: mine }, limited);
  const before = await eventCount();
  const created = await server.call('POST', '/v1/agents', { key: limited, json: { name: 'Workflow agent of the limited key', model: 'kbqa-extractive', workflow_id: wf.id } });
  t.is(created.status, 403);
  t.is(created.body.error.code, 'knowledge_base_not_allowed');
  t.is(created.body.error.param, 'workflow_id');
  const agent = await ok('POST', '/v1/agents', { name: 'Plain agent of the limited key', model: 'kbqa-extractive', knowledge_base_ids: [mine] }, limited);
  const patched = await server.call('PATCH', `/v1/agents/${agent.id}`, { key: limited, json: { knowledge_base_ids: [], workflow_id: wf.id } });
  t.is(patched.status, 403);
  t.is((await ok('GET', `/v1/agents/${agent.id}`, undefined, limited)).workflow_id, null, 'the agent is as it was');
  const all = await ok('GET', '/v1/agents?limit=100');
  t.false(all.data.some((a: { name: string }) => a.name === 'Workflow agent of the limited key'));
  t.is(await eventCount(), before + 1, 'only the plain agent was appended');
  t.is((await server.call('DELETE', `/v1/workflows/${wf.id}`, { key: limited })).status, 200, 'no agent holds the key’s own workflow');
});

test.serial('17: 409 in_use names only the agents the key may read, and counts the others', async (t) => {
  const wf = await ok('POST', '/v1/workflows', { name: 'shared', template: 'knowledge-qa', knowledge_base_id: mine });
  const visible = await ok('POST', '/v1/agents', { name: 'Visible user', model: 'kbqa-extractive', knowledge_base_ids: [mine] });
  const hidden = await ok('POST', '/v1/agents', { name: 'Hidden user (secret-name)', model: 'kbqa-extractive', knowledge_base_ids: [mine, sample.kbId] });
  const refused = await server.call('DELETE', `/v1/knowledge-bases/${mine}`, { key: limited });
  t.is(refused.status, 409);
  t.is(refused.body.error.code, 'in_use');
  t.true(refused.body.error.message.includes(visible.id));
  t.false(refused.body.error.message.includes(hidden.id));
  t.false(refused.body.error.message.includes('secret-name'));
  t.regex(refused.body.error.message, /and 1 other this key may not read/);
  t.true((await server.call('DELETE', `/v1/knowledge-bases/${mine}`)).body.error.message.includes(hidden.id), 'an unlimited key is told every one');

  const byWorkflow = await ok('POST', '/v1/agents', { name: 'Workflow user (secret-name)', model: 'kbqa-extractive', workflow_id: wf.id });
  const onlyHidden = await server.call('DELETE', `/v1/workflows/${wf.id}`, { key: limited });
  t.is(onlyHidden.status, 409);
  t.false(onlyHidden.body.error.message.includes(byWorkflow.id));
  t.regex(onlyHidden.body.error.message, /1 agent this key may not read/);
  for (const id of [visible.id, hidden.id, byWorkflow.id]) await ok('DELETE', `/v1/agents/${id}`);
});

test.serial('11: a workflow-backed agent cites only what its run’s retrieval gave, over its own knowledge bases; a forged citation is dropped', async (t) => {
  // A real citation of the sample's PDF page, as chat over it gives one: the forgery copies it.
  const chat = await ok('POST', '/v1/chat/completions', { model: 'kbqa-extractive', knowledge_base_id: sample.kbId, messages: [{ role: 'user', content: 'How long is each Zephyr-9 blade?' }] });
  const real = (chat.citations as { document_id: string; boxes: unknown[] }[]).find((c) => c.document_id === sample.docs.turbine && c.boxes.length > 0);
  t.truthy(real, 'the sample cites its PDF page, with boxes');
  const forged = { ...real, index: 9 };
  const graph = {
    nodes: [
      { id: 'start', type: 'start', config: { inputs: [{ name: 'question', type: 'string', required: true }] } },
      { id: 'retrieve', type: 'knowledge_retrieval', config: { knowledge_base_id: mine, query: '{{start.question}}' } },
      { id: 'forge', type: 'code', config: { code: `return [...(inputs.cited ?? []), ${JSON.stringify(forged)}]`, inputs: { cited: '{{retrieve.citations}}' } } },
      { id: 'done', type: 'end', config: { outputs: { answer: 'The notes are in the archive room [1] [9].', citations: '{{forge.result}}' } } },
    ],
    edges: [
      { from: 'start', to: 'retrieve' },
      { from: 'retrieve', to: 'forge' },
      { from: 'forge', to: 'done' },
    ],
  };
  const wf = await ok('POST', '/v1/workflows', { name: 'forger', graph });
  const agent = await ok('POST', '/v1/agents', { name: 'Forger', model: 'kbqa-extractive', workflow_id: wf.id });
  const slug = ((await ok('POST', `/v1/agents/${agent.id}/publish`)).public_url as string).slice('/a/'.length);

  const api = await ok('POST', '/v1/chat/completions', { model: agent.id, messages: [{ role: 'user', content: 'Where are the Zephyr-9 blade notes?' }] });
  const cited = api.citations as { document_id: string; knowledge_base_id: string }[];
  t.false(cited.some((c) => c.document_id === sample.docs.turbine), 'the forged citation is gone');
  t.true(cited.length > 0 && cited.every((c) => c.knowledge_base_id === mine), 'the retrieval’s own citations stay');

  const page = await server.call('POST', `/a/${slug}/chat`, { key: null, json: { messages: [{ role: 'user', content: 'Where are the Zephyr-9 blade notes?' }] } });
  t.is(page.status, 200);
  t.false((page.body.citations as { source: string }[]).some((c) => c.source === 'zephyr-9.pdf'));
  const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
  const image = await server.call('GET', `/a/${slug}/pages/${sample.docs.turbine}/2`, { key: null, headers: { cookie } });
  t.is(image.status, 404, 'the other knowledge base’s page is not served');
});
