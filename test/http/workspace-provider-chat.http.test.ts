import { createServer } from 'node:net';
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createWorkspaceWithAdminKey } from '../../src/app/services/workspaces.ts';
import { type ChatServer, startChatServer, LOOPBACK_PROVIDERS } from '../helpers/provider-servers.ts';
import { settledDocument } from '../helpers/documents.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';

const PROVIDER_KEY = 'sk-workspace-provider-1a2b';
let server: TestServer;
let provider: ChatServer;
let other: string;

test.before(async () => {
  server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0', KBQA_OPENAI_MAX_RETRIES: '0', ...LOOPBACK_PROVIDERS });
  provider = await startChatServer({ pieces: ['Hello ', 'from the loopback.'] });
  other = (await createWorkspaceWithAdminKey(server.runtime.ctx, 'chat-other'))!;
});

test.after.always(async () => {
  await server.close();
  await provider.close();
});

const ask = (model: string, key?: string, stream = false) =>
  server.call('POST', '/v1/chat/completions', { key, json: { model, stream, messages: [{ role: 'user', content: 'Say hello.' }] } });

test.serial('a workspace provider’s chat model answers /v1/chat/completions as {provider}/{model}, with the provider’s key', async (t) => {
  const created = await server.call('POST', '/v1/model-providers', { json: { name: 'loop', base_url: provider.baseUrl, api_key: PROVIDER_KEY, models: [{ id: 'loop-chat', type: 'chat' }] } });
  t.is(created.status, 201);

  const answer = await ask('loop/loop-chat');
  t.is(answer.status, 200, JSON.stringify(answer.body));
  t.is(answer.body.model, 'loop/loop-chat');
  t.is(answer.body.choices[0].message.content, 'Hello from the loopback.');
  const sent = provider.requests.at(-1)!;
  t.is(sent.authorization, `Bearer ${PROVIDER_KEY}`);
  t.is(sent.body.model, 'loop-chat');

  const streamed = await ask('loop/loop-chat', undefined, true);
  t.is(streamed.status, 200);
  t.true(String(streamed.body).includes('from the loopback.'));

  // /v1/responses goes through the same chat service.
  const response = await server.call('POST', '/v1/responses', { json: { model: 'loop/loop-chat', input: 'Say hello.' } });
  t.is(response.status, 200, JSON.stringify(response.body));
  t.is(response.body.model, 'loop/loop-chat');
  t.true(JSON.stringify(response.body.output).includes('from the loopback.'));

  // A model the provider does not list, and another workspace's provider, are not models here.
  t.is((await ask('loop/unlisted')).body.error?.code, 'model_not_found');
  const foreign = await ask('loop/loop-chat', other);
  t.is(foreign.status, 404);
  t.is(foreign.body.error.code, 'model_not_found');

  // A new key is used at once: the provider's event evicts the cached client.
  t.is((await server.call('PATCH', `/v1/model-providers/${created.body.id}`, { json: { api_key: 'sk-rotated-3c4d' } })).status, 200);
  t.is((await ask('loop/loop-chat')).status, 200);
  t.is(provider.requests.at(-1)!.authorization, 'Bearer sk-rotated-3c4d');

  // Deleted, it is no model any more.
  t.is((await server.call('DELETE', `/v1/model-providers/${created.body.id}`)).status, 200);
  t.is((await ask('loop/loop-chat')).status, 404);
});

test.serial('grounded in a knowledge base, the provider’s model gets the retrieved passages in its prompt', async (t) => {
  const created = await server.call('POST', '/v1/model-providers', { json: { name: 'grounded', base_url: provider.baseUrl, api_key: PROVIDER_KEY, models: [{ id: 'loop-chat', type: 'chat' }] } });
  const kb = (await server.call('POST', '/v1/knowledge-bases', { json: { name: 'facts' } })).body.id as string;
  const upload = await server.call('POST', `/v1/knowledge-bases/${kb}/documents`, { json: { name: 'vault.md', text: 'The vault code of the archive is 4417.' } });
  t.is((await settledDocument(server, kb, upload.body.data[0].id)).status, 'ready');
  const answer = await server.call('POST', '/v1/chat/completions', { json: { model: 'grounded/loop-chat', knowledge_base_id: kb, messages: [{ role: 'user', content: 'What is the vault code of the archive?' }] } });
  t.is(answer.status, 200, JSON.stringify(answer.body));
  t.is(answer.body.model, 'grounded/loop-chat');
  t.true(JSON.stringify(provider.requests.at(-1)!.body.messages).includes('4417'));
  await server.call('DELETE', `/v1/knowledge-bases/${kb}`);
  await server.call('DELETE', `/v1/model-providers/${created.body.id}`);
});

test.serial('the quick-start chat and MCP’s ask tool name a workspace chat model too, resolved by the caller’s workspace', async (t) => {
  const created = await server.call('POST', '/v1/model-providers', { json: { name: 'elsewhere', base_url: provider.baseUrl, api_key: PROVIDER_KEY, models: [{ id: 'loop-chat', type: 'chat' }] } });
  const kb = (await server.call('POST', '/v1/knowledge-bases', { json: { name: 'tides' } })).body.id as string;
  const upload = await server.call('POST', `/v1/knowledge-bases/${kb}/documents`, { json: { name: 'tide.md', text: 'High tide at the pier is at noon.' } });
  t.is((await settledDocument(server, kb, upload.body.data[0].id)).status, 'ready');

  const quick = await server.call('POST', '/v1/chat', { json: { model: 'elsewhere/loop-chat', knowledge_base_id: kb, messages: [{ role: 'user', content: 'When is high tide?' }] } });
  t.is(quick.status, 200, JSON.stringify(quick.body));
  t.like(quick.body, { object: 'chat.answer', model: 'elsewhere/loop-chat', content: 'Hello from the loopback.' });

  const ask = async (key: string, knowledge_base_id: string) => {
    const client = new Client({ name: 'kbqa-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    try {
      return (await client.callTool({ name: 'ask', arguments: { knowledge_base_id, question: 'When is high tide?', model: 'elsewhere/loop-chat' } })) as CallToolResult;
    } finally {
      await client.close();
    }
  };
  const before = provider.requests.length;
  const answered = await ask(ADMIN_KEY, kb);
  t.falsy(answered.isError, JSON.stringify(answered.content));
  t.like(answered.structuredContent, { model: 'elsewhere/loop-chat', answer: 'Hello from the loopback.' });
  t.is(provider.requests.length, before + 1);
  t.true(JSON.stringify(provider.requests.at(-1)!.body.messages).includes('noon'));

  // Another workspace's key, over a knowledge base of its own: the name finds nothing, and the provider is not called.
  const theirs = (await server.call('POST', '/v1/knowledge-bases', { key: other, json: { name: 'theirs' } })).body.id as string;
  const foreign = await ask(other, theirs);
  t.true(foreign.isError);
  t.regex((foreign.content[0] as { text: string }).text, /^model_not_found: /);
  t.is(provider.requests.length, before + 1);
  await server.call('DELETE', `/v1/knowledge-bases/${kb}`);
  await server.call('DELETE', `/v1/knowledge-bases/${theirs}`, { key: other });
  await server.call('DELETE', `/v1/model-providers/${created.body.id}`);
});

test.serial('an agent names a workspace chat model: it answers in the API and on its page; another workspace cannot name it', async (t) => {
  const created = await server.call('POST', '/v1/model-providers', { json: { name: 'persona', base_url: provider.baseUrl, api_key: PROVIDER_KEY, models: [{ id: 'loop-chat', type: 'chat' }] } });
  const agent = await server.call('POST', '/v1/agents', { json: { name: 'Greeter', model: 'persona/loop-chat', instructions: 'Greet.' } });
  t.is(agent.status, 201, JSON.stringify(agent.body));
  const slug = ((await server.call('POST', `/v1/agents/${agent.body.id}/publish`)).body.public_url as string).slice('/a/'.length);
  const before = provider.requests.length;
  const api = await server.call('POST', '/v1/chat/completions', { json: { model: agent.body.id, messages: [{ role: 'user', content: 'Hi' }] } });
  t.is(api.status, 200, JSON.stringify(api.body));
  t.is(api.body.choices[0].message.content, 'Hello from the loopback.');
  const page = await server.call('POST', `/a/${slug}/chat`, { key: null, json: { messages: [{ role: 'user', content: 'Hi' }] } });
  t.is(page.status, 200, JSON.stringify(page.body));
  t.is(page.body.choices[0].message.content, 'Hello from the loopback.');
  t.is(provider.requests.length, before + 2);
  t.is(provider.requests.at(-1)!.authorization, `Bearer ${PROVIDER_KEY}`);
  t.true(JSON.stringify(provider.requests.at(-1)!.body.messages).includes('Greet.'));

  const foreign = await server.call('POST', '/v1/agents', { key: other, json: { name: 'Greeter', model: 'persona/loop-chat' } });
  t.is(foreign.status, 400);
  t.like(foreign.body.error, { code: 'model_not_found', param: 'model' });

  // While the agent (its draft or its published page) names the model, the provider stays: 409 in_use naming the agent.
  const provider_ = `/v1/model-providers/${created.body.id}`;
  const refusals = [
    await server.call('DELETE', provider_),
    await server.call('PATCH', provider_, { json: { name: 'renamed' } }),
    await server.call('PATCH', provider_, { json: { models: [{ id: 'other-chat', type: 'chat' }] } }),
  ];
  for (const refused of refusals) {
    t.is(refused.status, 409);
    t.is(refused.body.error.code, 'in_use');
    t.true(refused.body.error.message.includes(`Greeter (${agent.body.id})`), refused.body.error.message);
  }
  // The draft moved to another model, the published version still names it; once unpublished, nothing does.
  t.is((await server.call('PATCH', `/v1/agents/${agent.body.id}`, { json: { model: 'kbqa-extractive' } })).status, 200);
  t.is((await server.call('DELETE', provider_)).status, 409);
  t.is((await server.call('POST', `/v1/agents/${agent.body.id}/unpublish`)).status, 200);
  t.is((await server.call('DELETE', provider_)).status, 200);
  await server.call('DELETE', `/v1/agents/${agent.body.id}`);
});

test.serial('a workflow’s LLM node names a workspace chat model: created and run with the run’s workspace, refused to another', async (t) => {
  const created = await server.call('POST', '/v1/model-providers', { json: { name: 'flow', base_url: provider.baseUrl, api_key: PROVIDER_KEY, models: [{ id: 'loop-chat', type: 'chat' }] } });
  const kb = (await server.call('POST', '/v1/knowledge-bases', { json: { name: 'flow-facts' } })).body.id as string;
  const upload = await server.call('POST', `/v1/knowledge-bases/${kb}/documents`, { json: { name: 'gate.md', text: 'The north gate opens at dawn.' } });
  t.is((await settledDocument(server, kb, upload.body.data[0].id)).status, 'ready');

  const wf = await server.call('POST', '/v1/workflows', { json: { name: 'QA', template: 'knowledge-qa', knowledge_base_id: kb, model: 'flow/loop-chat' } });
  t.is(wf.status, 201, JSON.stringify(wf.body));
  const before = provider.requests.length;
  const run = await server.call('POST', `/v1/workflows/${wf.body.id}/run`, { json: { inputs: { question: 'When does the north gate open?' } } });
  t.is(run.status, 200, JSON.stringify(run.body));
  t.is(run.body.status, 'succeeded', JSON.stringify(run.body.error));
  t.is(run.body.outputs.answer, 'Hello from the loopback.');
  t.is(provider.requests.length, before + 1);
  t.is(provider.requests.at(-1)!.authorization, `Bearer ${PROVIDER_KEY}`);
  t.true(JSON.stringify(provider.requests.at(-1)!.body.messages).includes('north gate'));

  // Another workspace cannot name it in a graph (its own knowledge base, the first workspace's provider name).
  const otherKb = (await server.call('POST', '/v1/knowledge-bases', { key: other, json: { name: 'theirs' } })).body.id as string;
  const foreign = await server.call('POST', '/v1/workflows', { key: other, json: { name: 'QA', template: 'knowledge-qa', knowledge_base_id: otherKb, model: 'flow/loop-chat' } });
  t.is(foreign.status, 400);
  t.is(foreign.body.error.code, 'model_not_found');

  // Once the provider is gone, a run of the saved workflow fails its LLM node with model_not_found.
  t.is((await server.call('DELETE', `/v1/model-providers/${created.body.id}`)).status, 200);
  const orphan = await server.call('POST', `/v1/workflows/${wf.body.id}/run`, { json: { inputs: { question: 'When does the north gate open?' } } });
  t.is(orphan.body.status, 'failed');
  t.is(orphan.body.error.code, 'model_not_found');
  await server.call('DELETE', `/v1/knowledge-bases/${kb}`);
});

test.serial('a provider that cannot be reached answers 502 naming the cause', async (t) => {
  const socket = createServer();
  await new Promise<void>((resolve) => socket.listen(0, '127.0.0.1', resolve));
  const { port } = socket.address() as { port: number };
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  const created = await server.call('POST', '/v1/model-providers', { json: { name: 'down', base_url: `http://127.0.0.1:${port}/v1`, api_key: PROVIDER_KEY, models: [{ id: 'loop-chat', type: 'chat' }] } });
  const answer = await ask('down/loop-chat');
  t.is(answer.status, 502);
  t.is(answer.body.error.code, 'provider_unavailable');
  t.regex(answer.body.error.message, /refused the connection \(ECONNREFUSED\)/);
  // Streamed, the answer has begun (200) before the provider is asked: the failure is the stream's error event.
  const streamed = await ask('down/loop-chat', undefined, true);
  t.regex(String(streamed.body), /event: error[\s\S]*ECONNREFUSED[\s\S]*provider_unavailable/);
  await server.call('DELETE', `/v1/model-providers/${created.body.id}`);
});
