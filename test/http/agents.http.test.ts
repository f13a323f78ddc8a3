import test from 'ava';
import OpenAI from 'openai';
import { createWorkspaceWithAdminKey } from '../../src/app/services/workspaces.ts';
import { sampleKnowledgeBase, type SampleKb } from '../helpers/knowledge-base.ts';
import { type ChatServer, loopbackChatEnv, startChatServer } from '../helpers/provider-servers.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';

// Agents over the real runtime: the offline model answers from knowledge bases; the loopback
// provider model `loop-chat` answers with the system prompt it was given, so instructions show.

let server: TestServer;
let provider: ChatServer;
let kb: SampleKb;
let otherKb: string;
let other: string;
let limited: string;
let readKey: string;

test.before(async () => {
  provider = await startChatServer({
    respond: (body) => {
      const messages = body.messages as { role: string; content: string }[];
      return { pieces: [`instructions: ${messages.find((m) => m.role === 'system' && m.content.startsWith('Persona'))?.content ?? 'none'}`] };
    },
  });
  server = await startServer({ ...loopbackChatEnv(provider.baseUrl), KBQA_RATE_LIMIT_PER_MINUTE: '0' });
  kb = await sampleKnowledgeBase(server);
  otherKb = (await server.call('POST', '/v1/knowledge-bases', { json: { name: 'other' } })).body.id;
  other = (await createWorkspaceWithAdminKey(server.runtime.ctx, 'agents-other'))!;
  limited = (await server.call('POST', '/v1/api-keys', { json: { name: 'limited', scopes: ['write'], knowledge_base_ids: [otherKb] } })).body.secret;
  readKey = (await server.call('POST', '/v1/api-keys', { json: { name: 'reader', scopes: ['read'] } })).body.secret;
});

test.after.always(async () => {
  await server?.close();
  await provider?.close();
});

const create = (json: Record<string, unknown>, key?: string) => server.call('POST', '/v1/agents', { key, json });
const base = () => ({ name: 'Turbine helper', model: 'kbqa-extractive', knowledge_base_ids: [kb.kbId] });

test.serial('an agent is created as a draft, read, listed, changed, published (versions count up), unpublished and deleted', async (t) => {
  const created = await create({ ...base(), instructions: 'Be brief.', suggested_questions: ['How long is a blade?'], public: { access_code: 'open-sesame', allowed_origins: ['https://example.com'] } });
  t.is(created.status, 201);
  t.regex(created.body.id, /^agt_/);
  t.like(created.body, { object: 'agent', status: 'draft', published_version: null, public_url: null, public: { access_code_set: true, allowed_origins: ['https://example.com'] } });
  t.false(JSON.stringify(created.body).includes('open-sesame'));
  const id = created.body.id as string;
  // The code is never in the log either: only its salted hash.
  const events = await server.runtime.store.readAll({ from: 0n });
  t.false(JSON.stringify(events.map((e) => e.data)).includes('open-sesame'));

  t.deepEqual((await server.call('GET', `/v1/agents/${id}`)).body, created.body);
  t.true((await server.call('GET', '/v1/agents')).body.data.some((a: { id: string }) => a.id === id));

  const first = await server.call('POST', `/v1/agents/${id}/publish`);
  t.is(first.status, 200);
  t.like(first.body, { version: 1 });
  t.regex(first.body.public_url, /^\/a\/[A-Za-z0-9_-]{10,}$/);
  t.false(first.body.public_url.includes(id));
  t.true(first.body.embed.iframe.includes(`${first.body.public_url}"`));
  t.true(first.body.embed.script.includes('data-kbqa-agent='));
  const patched = await server.call('PATCH', `/v1/agents/${id}`, { json: { name: 'Turbine helper 2' } });
  t.like(patched.body, { name: 'Turbine helper 2', status: 'published', published_version: 1, public: { access_code_set: true } });
  const second = await server.call('POST', `/v1/agents/${id}/publish`);
  t.is(second.body.version, 2);
  t.is(second.body.public_url, first.body.public_url, 'the slug is stable');
  const versions = await server.call('GET', `/v1/agents/${id}/versions?order=asc`);
  t.deepEqual(versions.body.data.map((v: { version: number; name: string }) => [v.version, v.name]), [[1, 'Turbine helper'], [2, 'Turbine helper 2']]);

  const down = await server.call('POST', `/v1/agents/${id}/unpublish`);
  t.like(down.body, { status: 'draft', published_version: null, public_url: null });
  t.is((await server.call('GET', first.body.public_url as string, { key: null })).status, 404);
  t.is((await server.call('DELETE', `/v1/agents/${id}`)).status, 200);
  t.is((await server.call('GET', `/v1/agents/${id}`)).body.error.code, 'agent_not_found');
});

test.serial('what an agent names is checked: a known chat model, knowledge bases and a workflow of this workspace', async (t) => {
  const model = await create({ ...base(), model: 'no-such-model' });
  t.is(model.status, 400);
  t.is(model.body.error.param, 'model');
  t.true(model.body.error.message.includes('no-such-model'));
  t.is((await create({ ...base(), model: 'kbqa-hash-embed' })).status, 400);
  t.is((await create({ ...base(), knowledge_base_ids: ['kb_missing'] })).status, 404);
  t.is((await create({ ...base(), workflow_id: 'wf_missing', knowledge_base_ids: [] })).status, 404);
  t.is((await create({ ...base(), public: { access_code: 'x' } })).status, 400, 'an access code of 4 characters at least');
  t.is((await create({ ...base(), unknown: 1 })).status, 400);
  for (const origin of ['https://example.com/path', 'https://example.com;script-src *', 'javascript:alert(1)', 'https://example.com/']) {
    t.is((await create({ ...base(), public: { allowed_origins: [origin] } })).status, 400, origin);
  }
  t.is((await create({ ...base(), public: { allowed_origins: ['https://example.com:8443'] } })).status, 201);
});

test.serial('access: another workspace finds nothing, a limited key only agents within its knowledge bases, a read key cannot write', async (t) => {
  const id = (await create(base())).body.id as string;
  t.is((await server.call('GET', `/v1/agents/${id}`, { key: other })).status, 404);
  t.is((await server.call('PATCH', `/v1/agents/${id}`, { key: other, json: { name: 'x' } })).status, 404);
  t.is((await server.call('GET', `/v1/agents/${id}`, { key: limited })).status, 403);
  t.false((await server.call('GET', '/v1/agents?limit=100', { key: limited })).body.data.some((a: { id: string }) => a.id === id));
  t.is((await create(base(), limited)).status, 403);
  t.is((await create({ ...base(), knowledge_base_ids: [otherKb] }, limited)).status, 201);
  t.is((await create(base(), readKey)).status, 403);
  t.is((await server.call('POST', `/v1/agents/${id}/publish`, { key: readKey })).status, 403);
});

test.serial('deleting a knowledge base or workflow an agent uses is refused with 409 in_use naming the agent', async (t) => {
  const kbId = (await server.call('POST', '/v1/knowledge-bases', { json: { name: 'used' } })).body.id as string;
  const agent = (await create({ ...base(), name: 'User of kb', knowledge_base_ids: [kbId] })).body.id as string;
  const refused = await server.call('DELETE', `/v1/knowledge-bases/${kbId}`);
  t.is(refused.status, 409);
  t.is(refused.body.error.code, 'in_use');
  t.true(refused.body.error.message.includes(agent));
  await server.call('DELETE', `/v1/agents/${agent}`);
  t.is((await server.call('DELETE', `/v1/knowledge-bases/${kbId}`)).status, 200);

  const wf = (await server.call('POST', '/v1/workflows', { json: { name: 'wf', template: 'knowledge-qa', knowledge_base_id: kb.kbId } })).body.id as string;
  const byWorkflow = (await create({ name: 'Workflow agent', model: 'kbqa-extractive', workflow_id: wf })).body.id as string;
  t.is((await server.call('DELETE', `/v1/workflows/${wf}`)).status, 409);
  await server.call('DELETE', `/v1/agents/${byWorkflow}`);
  t.is((await server.call('DELETE', `/v1/workflows/${wf}`)).status, 200);
});

test.serial('model: "agt_…" talks to the published version through the openai client; the draft with agent_version "draft"; listed in /v1/models', async (t) => {
  const id = (await create({ name: 'Persona agent', model: 'loop-chat', instructions: 'Persona: first' })).body.id as string;
  const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: ADMIN_KEY, maxRetries: 0 });
  const ask = { model: id, messages: [{ role: 'user' as const, content: 'Who are you?' }] };
  const unpublished = await client.chat.completions.create(ask).catch((error: unknown) => error as InstanceType<typeof OpenAI.APIError>);
  t.is((unpublished as InstanceType<typeof OpenAI.APIError>).status, 404);
  t.false((await client.models.list()).data.some((m) => m.id === id));

  await server.call('POST', `/v1/agents/${id}/publish`);
  await server.call('PATCH', `/v1/agents/${id}`, { json: { instructions: 'Persona: second' } });
  const published = await client.chat.completions.create(ask);
  t.is(published.model, id);
  t.is(published.choices[0]!.message.content, 'instructions: Persona: first');
  const draft = await server.call('POST', '/v1/chat/completions', { json: { ...ask, agent_version: 'draft' } });
  t.is(draft.body.choices[0].message.content, 'instructions: Persona: second');
  t.is((await server.call('POST', '/v1/chat/completions', { key: readKey, json: { ...ask, agent_version: 'draft' } })).status, 403);
  const quick = await server.call('POST', '/v1/chat', { json: ask });
  t.is(quick.body.content, 'instructions: Persona: first');

  const stream = await client.chat.completions.create({ ...ask, stream: true });
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
  t.is(text, 'instructions: Persona: first');

  const listed = (await client.models.list()).data.find((m) => m.id === id);
  t.like(listed, { owned_by: 'agent', type: 'agent' });
  t.false((await server.call('GET', '/v1/models', { key: other })).body.data.some((m: { id: string }) => m.id === id));
});

test.serial('an agent grounds its answers in its knowledge bases, with citations', async (t) => {
  const id = (await create(base())).body.id as string;
  await server.call('POST', `/v1/agents/${id}/publish`);
  const res = await server.call('POST', '/v1/chat/completions', { json: { model: id, messages: [{ role: 'user', content: 'How long is each Zephyr-9 blade?' }] } });
  t.is(res.status, 200);
  t.true(res.body.choices[0].message.content.includes('78'));
  t.true(res.body.citations.length > 0);
  t.is(res.body.model, id);
  t.is((await server.call('POST', '/v1/chat/completions', { key: limited, json: { model: id, messages: [{ role: 'user', content: 'Hi' }] } })).status, 403);
});

test.serial('a workflow-backed agent runs its workflow with the question and answers with its output, in the API and on its page', async (t) => {
  const wf = (await server.call('POST', '/v1/workflows', { json: { name: 'qa', template: 'knowledge-qa', knowledge_base_id: kb.kbId } })).body.id as string;
  const id = (await create({ name: 'Workflow helper', model: 'kbqa-extractive', workflow_id: wf })).body.id as string;
  t.is((await create({ name: 'Both', model: 'kbqa-extractive', workflow_id: wf, knowledge_base_ids: [kb.kbId] })).status, 400);
  const slug = ((await server.call('POST', `/v1/agents/${id}/publish`)).body.public_url as string).slice('/a/'.length);
  const res = await server.call('POST', '/v1/chat/completions', { json: { model: id, messages: [{ role: 'user', content: 'How long is each Zephyr-9 blade?' }] } });
  t.is(res.status, 200);
  t.true(res.body.choices[0].message.content.includes('78'));
  t.is(res.body.model, id);
  t.is((await server.call('GET', `/v1/agents/${id}`, { key: limited })).status, 403, 'its knowledge bases are its workflow’s: limited keys do not reach it');
  const page = await server.call('POST', `/a/${slug}/chat`, { key: null, json: { messages: [{ role: 'user', content: 'How long is each Zephyr-9 blade?' }] } });
  t.is(page.status, 200);
  t.true(page.body.choices[0].message.content.includes('78'));
  t.false(JSON.stringify(page.body).includes(kb.kbId));
});

test.serial('model: "agt_…" in /v1/responses answers from the published agent', async (t) => {
  const id = (await create({ name: 'Responses persona', model: 'loop-chat', instructions: 'Persona: responses' })).body.id as string;
  await server.call('POST', `/v1/agents/${id}/publish`);
  const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: ADMIN_KEY, maxRetries: 0 });
  const response = await client.responses.create({ model: id, input: 'Who are you?' });
  t.is(response.output_text, 'instructions: Persona: responses');
});
