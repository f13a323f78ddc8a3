import { createServer } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import type { Page } from 'playwright-core';
import { ADMIN_KEY } from '../helpers/admin-key.ts';
import { closeConsoleBrowser, consoleBrowserForTests, type ConsoleSession, openConsole } from '../helpers/console-browser.ts';
import { type EmbeddingsServer, startEmbeddingsServer } from '../helpers/openai-compatible-server.ts';
import { LOOPBACK_PROVIDERS } from '../helpers/provider-servers.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const chromium = consoleBrowserForTests();
const serial = chromium ? test.serial : test.serial.skip;
const PROVIDER_KEY = 'sk-loopback-provider-9f8e';
let server: TestServer | undefined;
let provider: EmbeddingsServer | undefined;
test.before(async () => {
  if (!chromium) return;
  server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0', ...LOOPBACK_PROVIDERS });
  provider = await startEmbeddingsServer({ dimensions: 8, apiKey: PROVIDER_KEY, models: ['loop-chat', 'loop-chat-2'] });
});
test.after.always(async () => {
  await closeConsoleBrowser();
  await server?.close();
  await provider?.close();
});

/** A loopback port nothing listens on: a provider there refuses the connection. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function expectClean(t: ExecutionContext, c: ConsoleSession, screen: string) {
  t.deepEqual(await c.accessibilityViolations(), [], `axe on ${screen}`);
  await c.screenshot(screen);
  t.deepEqual(c.cspViolations, []);
  t.deepEqual(c.pageErrors, []);
}

const card = (page: Page, name: string) => page.getByRole('article', { name });
const modelRow = (page: Page, id: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: id, exact: true }) });

async function addProvider(page: Page, name: string, baseUrl: string, models: { id: string; type?: 'embedding'; dimensions?: number }[]) {
  await page.getByRole('button', { name: 'Add model provider' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Base URL').fill(baseUrl);
  await dialog.getByLabel('API key').fill(PROVIDER_KEY);
  for (const [index, model] of models.entries()) {
    const n = index + 1;
    await dialog.getByRole('button', { name: 'Add model' }).click();
    await dialog.getByLabel(`Model ${n} id`).fill(model.id);
    if (model.type) {
      await dialog.getByRole('button', { name: new RegExp(`Model ${n} type`) }).click();
      await page.getByRole('option', { name: model.type }).click();
      await dialog.getByLabel(`Model ${n} dimensions`).fill(String(model.dimensions));
    }
  }
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await card(page, name).waitFor();
}

serial('models: add a provider, test its connection (and a failing one’s), its models in the table, discover more, in-use refusal, delete', async (t) => {
  const c = await openConsole(t, chromium!, { server });
  const { page } = c;
  await c.signIn();
  await page.goto(`${server!.url}/models`);
  await page.getByText('No model providers yet').waitFor();
  await modelRow(page, 'kbqa-extractive').waitFor();

  await addProvider(page, 'loop', provider!.baseUrl, [{ id: 'loop-chat' }, { id: 'loop-embed', type: 'embedding', dimensions: 8 }]);
  const loop = card(page, 'loop');
  t.true(await loop.getByText('…9f8e').isVisible(), 'the key is shown by its hint only');
  await loop.getByRole('button', { name: 'Test connection' }).click();
  await loop.getByText(/Connected: the provider answered in \d+ ms/).waitFor();
  await modelRow(page, 'loop/loop-chat').waitFor();
  t.regex(await modelRow(page, 'loop/loop-embed').innerText(), /embedding[\s\S]*Provider loop/);

  const port = await closedPort();
  await addProvider(page, 'down', `http://127.0.0.1:${port}/v1`, []);
  await card(page, 'down').getByRole('button', { name: 'Test connection' }).click();
  await card(page, 'down').getByText(/Connection failed \(connection_refused\):.*127\.0\.0\.1/).waitFor();
  await expectClean(t, c, 'models');

  // Edit: discovery adds the provider's other model; the key, not typed, stays.
  await loop.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Discover models' }).click();
  await dialog.getByText('Found 2 models').waitFor();
  t.is(await dialog.getByLabel('Model 3 id').inputValue(), 'loop-chat-2');
  t.deepEqual(await c.accessibilityViolations(), [], 'axe on the edit dialog');
  await c.screenshot('models-edit');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await modelRow(page, 'loop/loop-chat-2').waitFor();
  const { body: providers } = await server!.call('GET', '/v1/model-providers', { key: ADMIN_KEY });
  t.is(providers.data.find((p: { name: string }) => p.name === 'loop').api_key_hint, '…9f8e');

  // A knowledge base embedding with the provider's model holds it: the refusal is shown in the API's words.
  const kb = (await server!.call('POST', '/v1/knowledge-bases', { key: ADMIN_KEY, json: { name: 'held', settings: { embedding_model: 'loop/loop-embed' } } })).body.id as string;
  await loop.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  t.regex(await page.getByRole('alertdialog').getByRole('alert').innerText(), new RegExp(`Cannot delete model provider 'loop'.*${kb}`));
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
  await server!.call('DELETE', `/v1/knowledge-bases/${kb}`, { key: ADMIN_KEY });

  for (const name of ['loop', 'down']) {
    await card(page, name).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await card(page, name).waitFor({ state: 'detached' });
  }
  await modelRow(page, 'loop/loop-chat').waitFor({ state: 'detached' });
  t.deepEqual(c.pageErrors, []);
});

serial('workflows: the list shows a workflow created through the API; a read key sees models and workflows without any write control', async (t) => {
  const kb = (await server!.call('POST', '/v1/knowledge-bases', { key: ADMIN_KEY, json: { name: 'handbook' } })).body.id as string;
  const created = await server!.call('POST', '/v1/workflows', { key: ADMIN_KEY, json: { name: 'Handbook QA', template: 'knowledge-qa', knowledge_base_id: kb } });
  t.is(created.status, 201, JSON.stringify(created.body));
  const c = await openConsole(t, chromium!, { server });
  const { page } = c;
  await c.signIn();
  await page.getByRole('navigation').getByRole('link', { name: 'Workflows' }).click();
  const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /Handbook QA/ }) });
  await row.waitFor();
  const cells = await row.getByRole('gridcell').allInnerTexts();
  t.is(cells[0]!.split('\n')[0], String(created.body.graph.nodes.length));
  t.is(cells[1], '1', 'its version');
  t.is(await row.getByRole('link', { name: 'Handbook QA' }).getAttribute('href'), `/workflows/${created.body.id}`, 'it opens on the canvas');
  t.regex(await row.innerText(), /start → knowledge_retrieval/);
  await expectClean(t, c, 'workflows');

  const reader = (await server!.call('POST', '/v1/api-keys', { key: ADMIN_KEY, json: { name: 'reader', scopes: ['read'] } })).body.secret as string;
  const r = await openConsole(t, chromium!, { server });
  await r.signIn(reader);
  await r.page.getByRole('navigation').getByRole('link', { name: 'Models' }).click();
  await r.page.getByText('Model providers are managed with an admin key').waitFor();
  await modelRow(r.page, 'kbqa-extractive').waitFor();
  for (const name of ['Add model provider', 'Test connection', 'Edit', 'Delete']) t.is(await r.page.getByRole('button', { name }).count(), 0, name);
  await expectClean(t, r, 'models-read');
  await r.page.getByRole('navigation').getByRole('link', { name: 'Workflows' }).click();
  await r.page.getByRole('rowheader', { name: /Handbook QA/ }).waitFor();
  t.is(await r.page.locator('main').getByRole('button').count(), 0);

  // In Chinese, every word of the screen is Chinese (the models' ids aside).
  const zh = await openConsole(t, chromium!, { server });
  await zh.signIn();
  await zh.page.getByLabel('Language').selectOption('zh-CN');
  await zh.page.getByRole('navigation').getByRole('link', { name: '模型' }).click();
  await zh.page.getByRole('button', { name: '添加模型供应商' }).waitFor();
  await modelRow(zh.page, 'kbqa-extractive').waitFor();
  await zh.screenshot('models.zh-CN');
});

serial('a short key says it is set without showing any of it, and a published agent is listed by its name', async (t) => {
  const created = await server!.call('POST', '/v1/model-providers', { json: { name: 'short-key', base_url: provider!.baseUrl, api_key: 'sk-1', models: [{ id: 'loop-chat', type: 'chat' }] } });
  t.is(created.status, 201, JSON.stringify(created.body));
  t.teardown(() => server!.call('DELETE', `/v1/model-providers/${created.body.id}`).then(() => undefined));
  const agent = await server!.call('POST', '/v1/agents', { json: { name: 'Turbine helper', model: 'kbqa-extractive' } });
  t.is((await server!.call('POST', `/v1/agents/${agent.body.id}/publish`)).status, 200);
  const c = await openConsole(t, chromium!, { server });
  await c.signIn();
  await c.page.goto(`${server!.url}/models`);
  const card = c.page.getByRole('article', { name: 'short-key' });
  await card.waitFor();
  t.regex(await card.locator('.provider-where').innerText(), /Key set \(too short to show its end\)/);
  t.notRegex(await card.locator('.provider-where').innerText(), /Key …/);
  const agentRow = c.page.getByRole('row').filter({ has: c.page.getByRole('rowheader', { name: /Turbine helper/ }) });
  await agentRow.waitFor();
  t.regex(await agentRow.innerText(), new RegExp(agent.body.id));
  t.deepEqual(await c.accessibilityViolations(), []);
  t.deepEqual(c.pageErrors, []);
});
