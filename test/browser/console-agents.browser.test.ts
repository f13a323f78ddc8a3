import test from 'ava';
import { closeConsoleBrowser, consoleBrowserForTests, openConsole } from '../helpers/console-browser.ts';
import { sampleKnowledgeBaseWithPdf } from '../helpers/console-sample.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const chromium = consoleBrowserForTests();
const serial = chromium ? test.serial : test.serial.skip;
let server: TestServer | undefined;
/** The read key the first test creates in the console; the last signs in with it. */
let readSecret = '';

test.before(async () => {
  if (!chromium) return;
  server = await startServer();
  await sampleKnowledgeBaseWithPdf(server);
});
test.after.always(async () => {
  await closeConsoleBrowser();
  await server?.close();
});

serial('API keys: a read key is created and its secret shown once, another key is revoked', async (t) => {
  await server!.call('POST', '/v1/api-keys', { json: { name: 'old integration', scopes: ['write'] } });
  const c = await openConsole(t, chromium!, { server });
  await c.signIn();
  await c.page.getByRole('navigation').getByRole('link', { name: 'API keys' }).click();
  await c.page.getByRole('row', { name: /old integration/ }).waitFor();

  await c.page.getByRole('button', { name: 'New API key' }).click();
  await c.page.getByRole('textbox', { name: 'Name' }).fill('console reader');
  await c.page.getByRole('radio', { name: /^read/ }).check({ force: true });
  await c.page.getByRole('radio', { name: /^Only the knowledge bases/ }).check({ force: true });
  await c.page.getByRole('checkbox', { name: 'Zephyr manuals' }).waitFor({ state: 'attached' });
  t.deepEqual(await c.accessibilityViolations(), []);
  await c.screenshot('api-keys.new');
  await c.page.getByRole('radio', { name: /^Every knowledge base/ }).check({ force: true });
  await c.page.getByRole('button', { name: 'Create' }).click();
  const secret = c.page.getByRole('textbox', { name: 'API key secret' });
  await secret.waitFor();
  readSecret = await secret.inputValue();
  t.regex(readSecret, /^kbqa-/);
  t.regex(await c.page.getByRole('dialog').innerText(), /will not be shown again/);
  t.true(await c.page.getByRole('button', { name: 'Copy' }).isVisible());
  t.deepEqual(await c.accessibilityViolations(), []);
  await c.screenshot('api-keys.secret');
  await c.page.getByRole('button', { name: 'Done' }).click();
  await c.page.getByRole('dialog').waitFor({ state: 'detached' });
  t.false((await c.page.content()).includes(readSecret), 'the secret is gone from the page');
  t.regex(await c.page.getByRole('row', { name: /console reader/ }).innerText(), /read/);

  await c.page.getByRole('button', { name: 'Revoke old integration' }).click();
  await c.page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
  await c.page.getByRole('row', { name: /old integration/ }).waitFor({ state: 'detached' });
  const keys = await server!.call('GET', '/v1/api-keys');
  t.false((keys.body.data as { name: string }[]).some((key) => key.name === 'old integration'));

  // A key limited to one knowledge base, expiring at the end of a day.
  await c.page.getByRole('button', { name: 'New API key' }).click();
  await c.page.getByRole('textbox', { name: 'Name' }).fill('zephyr only');
  await c.page.getByRole('radio', { name: /^Only the knowledge bases/ }).check({ force: true });
  await c.page.locator('label.react-aria-Checkbox', { hasText: 'Zephyr manuals' }).click();
  await c.page.getByLabel('Expires on (optional)').fill('2099-12-31');
  await c.page.getByRole('button', { name: 'Create' }).click();
  await c.page.getByRole('button', { name: 'Done' }).click();
  t.regex(await c.page.getByRole('row', { name: /zephyr only/ }).innerText(), /read[\s\S]*Zephyr manuals[\s\S]*2099/);
  const limited = (await server!.call('GET', '/v1/api-keys')).body.data.find((key: { name: string }) => key.name === 'zephyr only');
  t.is(limited.expires_at, '2099-12-31T23:59:59Z');
  t.is(limited.knowledge_base_ids.length, 1);

  t.deepEqual(await c.accessibilityViolations(), []);
  await c.screenshot('api-keys');
  t.deepEqual(c.cspViolations, []);
  t.deepEqual(c.pageErrors, []);
});

serial('agents: create one, edit its instructions, preview the draft, publish, and its page opens from the link', async (t) => {
  const c = await openConsole(t, chromium!, { server });
  await c.signIn();
  await c.page.getByRole('navigation').getByRole('link', { name: 'Agents' }).click();
  await c.page.getByRole('button', { name: 'New agent' }).click();
  await c.page.getByRole('textbox', { name: 'Name' }).fill('Zephyr helper');
  await c.page.getByRole('button', { name: 'Create' }).isEnabled();
  await c.page.waitForFunction(() => !document.querySelector('.react-aria-Dialog button[type=submit][disabled]'));
  await c.page.getByRole('button', { name: 'Create' }).click();
  await c.page.getByRole('heading', { level: 1, name: 'Zephyr helper' }).waitFor();

  await c.page.locator('label.react-aria-Checkbox', { hasText: 'Zephyr manuals' }).click();
  await c.page.getByRole('textbox', { name: 'Instructions' }).fill('You answer questions about the Zephyr-9 wind turbine, briefly.');
  await c.page.getByRole('button', { name: 'Save draft' }).click();
  await c.page.getByText('Draft saved.').waitFor();
  const { body: agents } = await server!.call('GET', '/v1/agents');
  const agent = agents.data[0] as { id: string; instructions: string; knowledge_base_ids: string[] };
  t.regex(agent.instructions, /Zephyr-9 wind turbine/);
  t.is(agent.knowledge_base_ids.length, 1);

  await c.page.getByRole('textbox', { name: 'Ask the draft a question' }).fill('What is the hub height?');
  await c.page.getByRole('button', { name: 'Send' }).click();
  await c.page.getByRole('button', { name: 'Send' }).waitFor();
  t.regex(await c.page.locator('.turn-assistant').last().innerText(), /110 metres/);

  await c.page.getByRole('button', { name: 'Publish' }).click();
  await c.page.getByText('Published: version 1').waitFor();
  const link = c.page.locator('.publish-link a');
  const url = await link.getAttribute('href');
  t.regex(url!, /\/a\/[\w-]{16}$/);
  t.true(await c.page.getByRole('button', { name: 'Copy link' }).isVisible());
  t.regex(await c.page.locator('.embed-code pre').innerText(), /embed\.js/);
  t.true(await c.page.getByRole('button', { name: 'Copy embed code' }).isVisible());
  await c.page.getByRole('row', { name: /v1/ }).waitFor();

  t.deepEqual(await c.accessibilityViolations(), []);
  await c.screenshot('agent-editor');

  const landing = await c.page.context().newPage();
  await landing.goto(url!);
  await landing.getByRole('heading', { name: 'Zephyr helper' }).waitFor();
  await landing.close();

  await c.page.getByRole('link', { name: 'All agents' }).click();
  const row = c.page.getByRole('row', { name: /Zephyr helper/ });
  await row.waitFor();
  t.regex(await row.innerText(), /published/);
  t.deepEqual(await c.accessibilityViolations(), []);
  await c.screenshot('agents');
  t.deepEqual(c.cspViolations, []);
  t.deepEqual(c.pageErrors, []);
});

serial('a read key sees keys and agents without a control that changes them', async (t) => {
  t.truthy(readSecret, 'the first test created the read key');
  const c = await openConsole(t, chromium!, { server });
  await c.signIn(readSecret);
  await c.page.getByRole('navigation').getByRole('link', { name: 'API keys' }).click();
  await c.page.getByText('Managing API keys needs a key with the admin scope.').waitFor();
  t.is(await c.page.getByRole('button', { name: 'New API key' }).count(), 0);

  await c.page.getByRole('navigation').getByRole('link', { name: 'Agents' }).click();
  await c.page.getByRole('link', { name: 'Zephyr helper' }).click();
  await c.page.getByRole('heading', { level: 1, name: 'Zephyr helper' }).waitFor();
  await c.page.getByText('Your key can read this agent but not change it.').waitFor();
  for (const name of ['Save draft', 'Publish', 'Unpublish', 'Send', 'New agent']) t.is(await c.page.getByRole('button', { name }).count(), 0, name);
  t.is(await c.page.getByRole('textbox', { name: 'Instructions' }).getAttribute('readonly'), '');
  t.deepEqual(await c.accessibilityViolations(), []);
  await c.screenshot('agent-editor.read');
  await c.page.getByRole('link', { name: 'All agents' }).click();
  await c.page.getByRole('row', { name: /Zephyr helper/ }).waitFor();
  t.is(await c.page.getByRole('button', { name: 'New agent' }).count(), 0);
  t.deepEqual(c.cspViolations, []);
  t.deepEqual(c.pageErrors, []);
});

serial('agents: unpublish takes the page down, delete removes the agent', async (t) => {
  const { body: models } = await server!.call('GET', '/v1/models');
  const model = (models.data as { id: string; type: string }[]).find((m) => m.type === 'chat')!.id;
  const { body: agent } = await server!.call('POST', '/v1/agents', { json: { name: 'Short-lived', model } });
  const { body: publication } = await server!.call('POST', `/v1/agents/${agent.id}/publish`);
  const c = await openConsole(t, chromium!, { server });
  await c.signIn();
  await c.page.goto(`${server!.url}/agents/${agent.id}`);
  await c.page.getByText('Published: version 1').waitFor();
  await c.page.getByRole('button', { name: 'Unpublish' }).click();
  await c.page.getByRole('alertdialog').getByRole('button', { name: 'Unpublish' }).click();
  await c.page.getByText('Not published: only the console can try the draft.').waitFor();
  t.is((await fetch(`${server!.url}${publication.public_url}`)).status, 404);

  await c.page.getByRole('button', { name: 'Delete agent' }).click();
  await c.page.getByRole('alertdialog').getByRole('button', { name: 'Delete agent' }).click();
  await c.page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();
  t.is((await server!.call('GET', `/v1/agents/${agent.id}`)).status, 404);
  t.deepEqual(c.cspViolations, []);
  t.deepEqual(c.pageErrors, []);
});
