import test from 'ava';
import type { Locator, Page } from 'playwright-core';
import { closeConsoleBrowser, consoleBrowserForTests, openConsole } from '../helpers/console-browser.ts';
import { node, notesKnowledgeBase, panel, press } from '../helpers/canvas-page.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const chromium = consoleBrowserForTests();
const serial = chromium ? test.serial : test.serial.skip;
let server: TestServer | undefined;
/** The workflow the journey builds; the later tests change it. */
let workflowId = '';

const NOTES = `# Zephyr-9 turbine notes

The Zephyr-9 wind turbine has a hub height of 110 metres.
Its rotor diameter is 126 metres and it starts turning at a wind speed of 3 metres per second.
`;

test.before(async () => {
  if (!chromium) return;
  server = await startServer();
  await notesKnowledgeBase(server, NOTES);
});
test.after.always(async () => {
  await closeConsoleBrowser();
  await server?.close();
});


/** Opens a React Aria select by the keyboard and picks an option by its name. */
async function choose(page: Page, scope: Locator, label: string, option: string) {
  await press(scope.getByRole('button', { name: new RegExp(`${label}$`) }));
  await press(page.getByRole('option', { name: option, exact: true }));
}

/** The reference picker of a template field: Enter opens it, Enter on an item inserts it at the caret. */
async function insertReference(page: Page, field: string, reference: string) {
  await press(panel(page).getByRole('button', { name: `Insert reference into ${field}` }));
  await press(page.getByRole('menuitem', { name: reference }));
}

async function connect(page: Page, from: string, to: string) {
  await press(page.getByRole('button', { name: 'Connect', exact: true }));
  const dialog = page.getByRole('dialog');
  await choose(page, dialog, 'From node', from);
  await choose(page, dialog, 'To node', to);
  await press(dialog.getByRole('button', { name: 'Connect', exact: true }));
  await dialog.waitFor({ state: 'detached' });
}

serial('canvas: build a workflow with the keyboard, save, run it, and read every node’s trace', async (t) => {
  const c = await openConsole(t, chromium!, { server });
  const { page } = c;
  await c.signIn();
  await press(page.getByRole('navigation').getByRole('link', { name: 'Workflows' }));
  await press(page.getByRole('button', { name: 'New workflow' }));
  await page.getByRole('textbox', { name: 'Name' }).fill('Turbine answers');
  await press(page.getByRole('dialog').getByRole('button', { name: 'Create' }));
  await page.getByRole('textbox', { name: 'Workflow name' }).waitFor();
  t.is(await page.getByRole('textbox', { name: 'Workflow name' }).inputValue(), 'Turbine answers');

  // The default graph: a start and a reply; retrieval and a model go between them.
  await node(page, 'reply').waitFor();
  for (const name of ['knowledge retrieval', 'language model']) await press(page.getByRole('button', { name: `Add ${name}` }));
  t.is(await page.locator('.react-flow__node').count(), 4);
  await press(page.getByRole('group', { name: 'Edge from start to reply' }));
  await press(page.getByRole('button', { name: 'Delete edge' }));
  await connect(page, 'start', 'knowledge_retrieval');
  await connect(page, 'knowledge_retrieval', 'llm');
  await connect(page, 'llm', 'reply');
  t.is(await page.locator('.react-flow__edge').count(), 3);

  await press(node(page, 'knowledge_retrieval'));
  await choose(page, panel(page), 'Knowledge base', 'Turbine notes');
  await panel(page).getByRole('checkbox', { name: 'Rerank the passages' }).press('Space');
  await insertReference(page, 'Search query', '{{start.question}}');
  t.is(await panel(page).getByRole('textbox', { name: 'Search query' }).inputValue(), '{{start.question}}');

  await press(node(page, 'llm'));
  // As chat does: the passages in the system message, the question as the user's.
  await panel(page).getByRole('textbox', { name: 'Instructions' }).fill('Answer from these passages only.\n');
  await insertReference(page, 'Instructions', '{{knowledge_retrieval.context}}');
  t.regex(await panel(page).getByRole('textbox', { name: 'Instructions' }).inputValue(), /passages only\.\n\{\{knowledge_retrieval\.context\}\}$/);
  await insertReference(page, 'Prompt', '{{start.question}}');
  await panel(page).getByRole('button', { name: /Model$/ }).filter({ hasText: 'kbqa-extractive' }).waitFor();

  await press(node(page, 'reply'));
  await panel(page).getByRole('textbox', { name: 'Reply' }).fill('');
  await insertReference(page, 'Reply', '{{llm.text}}');

  await press(page.getByRole('button', { name: 'Save', exact: true }));
  await page.getByText('Draft: version 2').waitFor();
  workflowId = /\/workflows\/([^/]+)$/.exec(page.url())![1]!;
  const { body: stored } = await server!.call('GET', `/v1/workflows/${workflowId}`);
  t.deepEqual(
    stored.graph.edges.map((e: { from: string; to: string }) => `${e.from}>${e.to}`),
    ['start>knowledge_retrieval', 'knowledge_retrieval>llm', 'llm>reply'],
  );
  t.is(stored.graph.nodes.find((n: { id: string }) => n.id === 'knowledge_retrieval').config.rerank, true, 'a boolean field is saved as a boolean');

  await page.getByRole('textbox', { name: 'question', exact: true }).fill('What is the hub height of the Zephyr-9?');
  await press(page.getByRole('button', { name: 'Run', exact: true }));
  await page.locator('.run-answer').waitFor();
  t.regex(await page.locator('.run-answer').innerText(), /110 metres/);
  t.true((await page.locator('.run-citations li').count()) > 0, 'the answer has citations');
  for (const id of ['start', 'knowledge_retrieval', 'llm', 'reply']) {
    t.regex((await node(page, id).getAttribute('aria-label'))!, /succeeded/, `${id} succeeded`);
    await press(node(page, id));
    const trace = panel(page).getByRole('region', { name: 'Trace' });
    await trace.getByText('Inputs').waitFor();
    const text = await trace.innerText();
    t.regex(text, /succeeded/);
    t.regex(text, /Outputs/);
    t.regex(text, /\d+(\.\d+)? ms/, `${id}'s time`);
  }
  t.regex(await panel(page).getByRole('region', { name: 'Trace' }).innerText(), /110 metres/);
  t.is(await page.getByRole('list').filter({ has: page.getByRole('button', { name: /succeeded \(version 2\)/ }) }).count(), 1);

  t.deepEqual(await c.accessibilityViolations(), []);
  await c.screenshot('workflow-canvas');
  t.deepEqual(c.cspViolations, []);
  t.deepEqual(c.pageErrors, []);
});

serial('canvas: a save after someone else’s says so, keeps the user’s work, and overwrites on request', async (t) => {
  t.truthy(workflowId, 'the journey saved a workflow');
  const c = await openConsole(t, chromium!, { server });
  const { page } = c;
  await c.signIn();
  await page.goto(`${server!.url}/workflows/${workflowId}`);
  await page.getByText('Draft: version 2').waitFor();
  await page.getByRole('textbox', { name: 'Workflow name' }).fill('Turbine answers (mine)');
  await press(page.getByRole('button', { name: 'Add text template' }));

  const { body: theirs } = await server!.call('GET', `/v1/workflows/${workflowId}`);
  const put = await server!.call('PUT', `/v1/workflows/${workflowId}`, { json: { name: 'Turbine answers (theirs)', graph: theirs.graph }, headers: { 'if-match': `"${theirs.version}"` } });
  t.is(put.status, 200);

  // The Delete key on the focused node removes it (an unconnected node would not validate).
  await node(page, 'template').press('Delete');
  await node(page, 'template').waitFor({ state: 'detached' });
  await press(page.getByRole('button', { name: 'Save', exact: true }));
  const alert = page.getByRole('alert').filter({ hasText: 'Someone else saved' });
  await alert.waitFor();
  t.regex(await alert.innerText(), /version 3/);
  t.is(await page.getByRole('textbox', { name: 'Workflow name' }).inputValue(), 'Turbine answers (mine)', 'the user’s work stays');
  await press(page.getByRole('button', { name: 'Undo' }));
  t.is(await page.locator('.react-flow__node').count(), 5, 'and so does the graph, with its history');
  await page.keyboard.press('Control+Shift+Z');
  t.is(await page.locator('.react-flow__node').count(), 4, 'redone by the keyboard');
  t.deepEqual(await c.accessibilityViolations(), []);

  await press(page.getByRole('button', { name: 'Overwrite' }));
  await page.getByText('Draft: version 4').waitFor();
  t.is((await server!.call('GET', `/v1/workflows/${workflowId}`)).body.name, 'Turbine answers (mine)');
  t.deepEqual(c.pageErrors, []);
});

serial('canvas: the server’s validation message shows on the node at fault and in the list', async (t) => {
  const c = await openConsole(t, chromium!, { server });
  const { page } = c;
  await c.signIn();
  await page.goto(`${server!.url}/workflows/${workflowId}`);
  await page.getByText(/Draft: version \d/).waitFor();
  await press(node(page, 'reply'));
  await panel(page).getByRole('textbox', { name: 'Reply' }).fill('{{nowhere.text}}');
  await press(page.getByRole('button', { name: 'Save', exact: true }));
  await page.getByRole('heading', { name: /The server found 1 problem/ }).waitFor();
  t.regex((await node(page, 'reply').getAttribute('aria-label'))!, /1 problem/);
  t.regex(await panel(page).getByRole('list', { name: 'Problems with this node' }).innerText(), /nowhere/);
  t.regex(await page.locator('.fault-list').innerText(), /reply/);
  t.deepEqual(await c.accessibilityViolations(), []);
  t.deepEqual(c.pageErrors, []);
});

serial('canvas: an earlier run opens from the history; a node runs alone, and the workflow again from it, the nodes before reused', async (t) => {
  const c = await openConsole(t, chromium!, { server });
  const { page } = c;
  await c.signIn();
  await page.goto(`${server!.url}/workflows/${workflowId}`);
  await press(page.getByRole('button', { name: /: succeeded \(version 2\)$/ }));
  await page.locator('.run-answer').waitFor();
  t.regex((await node(page, 'llm').getAttribute('aria-label'))!, /succeeded/);

  await press(node(page, 'llm'));
  const upstream = panel(page).getByRole('textbox', { name: /^Upstream outputs/ });
  t.regex(await upstream.inputValue(), /"knowledge_retrieval": \{[\s\S]*"context"/, 'the run on show gives the upstream outputs');
  await press(panel(page).getByRole('button', { name: 'Run this node' }));
  await panel(page).locator('[aria-live] .trace-step').waitFor();
  t.regex(await panel(page).locator('[aria-live] .trace-step').innerText(), /succeeded[\s\S]*110 metres/);

  await press(panel(page).getByRole('button', { name: 'Run from here' }));
  await page.getByRole('button', { name: /: succeeded \(version \d\)$/ }).nth(1).waitFor();
  await page.locator('.run-answer').waitFor();
  t.regex((await node(page, 'knowledge_retrieval').getAttribute('aria-label'))!, /reused/);
  t.regex((await node(page, 'llm').getAttribute('aria-label'))!, /succeeded/);
  t.deepEqual(await c.accessibilityViolations(), []);
  t.deepEqual(c.pageErrors, []);
});

serial('canvas in Simplified Chinese: the palette, the toolbar and the run panel speak it', async (t) => {
  const c = await openConsole(t, chromium!, { server });
  const { page } = c;
  await c.signIn();
  await page.getByLabel('Language').selectOption('zh-CN');
  await page.goto(`${server!.url}/workflows/${workflowId}`);
  await page.getByText(/草稿：第 \d+ 版/).waitFor();
  for (const name of ['添加大语言模型', '保存', '发布', '撤销', '重做', '自动布局', '连接', '运行']) t.is(await page.getByRole('button', { name, exact: true }).count(), 1, name);
  await press(node(page, 'llm'));
  await panel(page).getByRole('button', { name: '向 提示词 插入引用' }).waitFor();
  t.deepEqual(await c.accessibilityViolations(), []);
  await c.screenshot('workflow-canvas.zh-CN');
  t.deepEqual(c.pageErrors, []);
});

