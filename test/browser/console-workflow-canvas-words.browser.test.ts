import test from 'ava';
import type { Locator, Page } from 'playwright-core';
import { closeConsoleBrowser, consoleBrowserForTests, openConsole } from '../helpers/console-browser.ts';
import { node, notesKnowledgeBase, panel, press } from '../helpers/canvas-page.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Issue 43 item 7: the canvas in people's words (node names, field labels and help, in English and
// Simplified Chinese), readable node text, a run's citations once per page with a link, and a new
// workflow starting from a start node. The journey that builds a workflow by hand is
// console-workflow-canvas.browser.test.ts; this file's workflow is made through the API.

const chromium = consoleBrowserForTests();
const serial = chromium ? test.serial : test.serial.skip;
let server: TestServer | undefined;
let kbId = '';
let docId = '';
let workflowId = '';

/** Three sections about one turbine on one page: a question about it retrieves several passages of the same page. */
const NOTES = `# Zephyr-9 turbine notes

The Zephyr-9 wind turbine has a hub height of 110 metres.
Its rotor diameter is 126 metres and it starts turning at a wind speed of 3 metres per second.

## Zephyr-9 tower

The Zephyr-9 tower holding the hub at 110 metres is made of four steel sections bolted together.

## Zephyr-9 blades

Each of the three Zephyr-9 blades is 61 metres long, so the hub height of 110 metres leaves ground clearance.
`;

test.before(async () => {
  if (!chromium) return;
  server = await startServer();
  ({ kbId, docId } = await notesKnowledgeBase(server, NOTES));
  const graph = {
    nodes: [
      { id: 'start', type: 'start', config: { inputs: [{ name: 'question', type: 'string', required: true }] } },
      { id: 'knowledge_retrieval', type: 'knowledge_retrieval', config: { knowledge_base_id: kbId, query: '{{start.question}}', rerank: true } },
      { id: 'llm', type: 'llm', config: { model: 'kbqa-extractive', system: 'Answer from these passages only.\n{{knowledge_retrieval.context}}', prompt: '{{start.question}}' } },
      { id: 'reply', type: 'direct_reply', config: { template: '{{llm.text}}' } },
    ],
    edges: [
      { from: 'start', to: 'knowledge_retrieval' },
      { from: 'knowledge_retrieval', to: 'llm' },
      { from: 'llm', to: 'reply' },
    ],
  };
  const created = await server.call('POST', '/v1/workflows', { json: { name: 'Turbine answers', graph } });
  if (created.status !== 201) throw new Error(`workflow: ${created.status} ${JSON.stringify(created.body)}`);
  workflowId = created.body.id;
  const run = await server.call('POST', `/v1/workflows/${workflowId}/run`, { json: { inputs: { question: 'What is the hub height of the Zephyr-9?' } } });
  if (run.body.status !== 'succeeded') throw new Error(`run: ${JSON.stringify(run.body)}`);
});
test.after.always(async () => {
  await closeConsoleBrowser();
  await server?.close();
});


/** The help line a control is described by (aria-describedby), as a screen reader reads it after the name. */
async function descriptionOf(control: Locator): Promise<string> {
  return control.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => (id ? (document.getElementById(id)?.textContent ?? '') : ''))
      .join(' ')
      .trim(),
  );
}

async function openWorkflow(t: Parameters<typeof openConsole>[0]) {
  const c = await openConsole(t, chromium!, { server });
  await c.signIn();
  await c.page.goto(`${server!.url}/workflows/${workflowId}`);
  await c.page.getByText(/Draft: version \d/).waitFor();
  return c;
}

serial('canvas: a new workflow opens on its start node, created with it by the API', async (t) => {
  const c = await openConsole(t, chromium!, { server });
  const { page } = c;
  await c.signIn();
  await press(page.getByRole('navigation').getByRole('link', { name: 'Workflows' }));
  await press(page.getByRole('button', { name: 'New workflow' }));
  await page.getByRole('textbox', { name: 'Name' }).fill('Fresh start');
  await press(page.getByRole('dialog').getByRole('button', { name: 'Create' }));
  await node(page, 'start').waitFor();
  t.regex((await node(page, 'start').getAttribute('aria-label'))!, /^start \(Start\)/);
  await page.waitForURL(/\/workflows\/(?!new$)[^/]+$/);
  const id = /\/workflows\/([^/]+)$/.exec(page.url())![1]!;
  const { body: stored } = await server!.call('GET', `/v1/workflows/${id}`);
  t.deepEqual(stored.graph.nodes.map((n: { type: string }) => n.type), ['start', 'direct_reply'], 'saved already, with the default graph');
  t.deepEqual(c.pageErrors, []);
});

serial('canvas: the palette, the nodes and the panel name node types as people do, in English and in Simplified Chinese', async (t) => {
  const c = await openWorkflow(t);
  const { page } = c;
  for (const name of ['Add start', 'Add knowledge retrieval', 'Add language model', 'Add condition', 'Add reply', 'Add HTTP request', 'Add JavaScript code']) {
    t.is(await page.getByRole('button', { name, exact: true }).count(), 1, name);
  }
  t.is(await page.getByRole('button', { name: /knowledge_retrieval|direct_reply|http_request/ }).count(), 0, 'no type id names a button');
  t.regex(await node(page, 'knowledge_retrieval').innerText(), /^Knowledge retrieval\n/);
  await press(node(page, 'knowledge_retrieval'));
  t.is(await panel(page).getByRole('heading', { level: 2 }).innerText(), 'Knowledge retrieval: knowledge_retrieval');
  t.is(await panel(page).locator('.type-id').first().innerText(), 'knowledge_retrieval', 'the API’s type id, small, for people reading the API docs');

  await page.getByRole('combobox', { name: /^Language/ }).selectOption('zh-CN');
  await page.goto(`${server!.url}/workflows/${workflowId}`);
  await page.getByText(/草稿：第 \d+ 版/).waitFor();
  for (const name of ['添加开始', '添加知识检索', '添加大语言模型', '添加条件分支', '添加直接回复', '添加 HTTP 请求', '添加 JavaScript 代码']) t.is(await page.getByRole('button', { name, exact: true }).count(), 1, name);
  t.regex(await node(page, 'knowledge_retrieval').innerText(), /^知识检索\n/);
  await press(node(page, 'knowledge_retrieval'));
  const topK = panel(page).getByLabel('检索段落数', { exact: true });
  t.is(await topK.count(), 1);
  t.regex(await descriptionOf(topK), /把最匹配的多少个段落交给下一个节点/);
  t.is(await panel(page).getByRole('checkbox', { name: '重新排序段落' }).count(), 1);
  t.deepEqual(await c.accessibilityViolations(), []);
  t.deepEqual(c.pageErrors, []);
});

serial('canvas: every field of the panel has a label and a help line it is described by; a yes/no field is a checkbox, a choice is in words', async (t) => {
  const c = await openWorkflow(t);
  const { page } = c;
  await press(node(page, 'knowledge_retrieval'));
  const fields = { 'Knowledge base': /searched/, 'Search query': /user’s question/, 'Passages to retrieve': /How many of the best-matching passages go to the next node/, 'Minimum relevance': /0 to 1/, 'Search method': /setting applies/ };
  for (const [label, help] of Object.entries(fields)) {
    const control = panel(page).getByLabel(label, { exact: true });
    t.is(await control.count(), 1, label);
    t.regex(await descriptionOf(control), help, `${label}'s help`);
  }
  const rerank = panel(page).getByRole('checkbox', { name: 'Rerank the passages' });
  t.true(await rerank.isChecked(), 'the journey ticked it');
  t.regex(await descriptionOf(rerank), /finer model/);
  t.is(await panel(page).getByText(/^(true|false)$/).count(), 0, 'no true/false choice');
  await press(panel(page).getByRole('button', { name: /Search method$/ }));
  for (const option of ['Hybrid (meaning and keywords)', 'By meaning', 'By keywords', 'Knowledge graph']) t.is(await page.getByRole('option', { name: option, exact: true }).count(), 1, option);
  await page.keyboard.press('Escape');

  await press(node(page, 'llm'));
  for (const label of ['Model', 'Instructions', 'Prompt', 'Creativity (temperature)', 'Longest answer (tokens)']) {
    t.truthy(await descriptionOf(panel(page).getByLabel(label, { exact: true })), `${label}'s help`);
  }
  t.deepEqual(await c.accessibilityViolations(), []);
  t.deepEqual(c.pageErrors, []);
});

serial('canvas: node text is readable at 100 % zoom: names 15 px, ids and states 14 px', async (t) => {
  const c = await openWorkflow(t);
  const { page } = c;
  await node(page, 'llm').waitFor();
  const px = (selector: string) => page.locator(selector).evaluateAll((els) => els.map((el) => parseFloat(getComputedStyle(el).fontSize)));
  const sizes = { all: await px('.flow-node, .flow-node *'), names: await px('.flow-node-name'), ids: await px('.flow-node-id'), edges: await px('.react-flow__edge-text') };
  t.true(sizes.all.length >= 8 && sizes.all.every((size) => size >= 14), `every text on the nodes: ${sizes.all}`);
  t.is(sizes.names.length, 4);
  t.true(sizes.names.every((size) => size >= 15), `names ${sizes.names}`);
  t.true(sizes.ids.every((size) => size >= 14), `ids ${sizes.ids}`);
  t.true(sizes.edges.every((size) => size >= 13), `edge labels ${sizes.edges}`);
  t.deepEqual(c.pageErrors, []);
});

serial('canvas: a run’s citations are listed once per document and page, each with its page and a link to the passage', async (t) => {
  const c = await openWorkflow(t);
  const { page } = c;
  await press(page.getByRole('button', { name: /: succeeded \(version 1\)$/ }).first());
  await page.locator('.run-citations li').first().waitFor();
  const { body: runs } = await server!.call('GET', `/v1/workflows/${workflowId}/runs`);
  const shown = runs.data.find((run: { workflow_version: number; status: string }) => run.workflow_version === 1 && run.status === 'succeeded');
  const cited: { document_id: string; page: number; chunk_id: string }[] = shown.outputs.citations;
  const places = new Set(cited.map((citation) => `${citation.document_id}:${citation.page}`));
  t.true(cited.length > places.size, `the run cites several passages of one page (${cited.length} citations, ${places.size} places)`);
  t.log(`${cited.length} citations in the run's outputs, ${places.size} document pages listed`);
  const entries = page.locator('.run-citations li');
  t.is(await entries.count(), places.size);
  t.regex(await entries.first().innerText(), /^zephyr-notes\.md, page 1\b/);
  const link = entries.first().getByRole('link', { name: 'Open zephyr-notes.md, page 1' });
  const href = await link.getAttribute('href');
  t.is(href, `/knowledge-bases/${kbId}/documents/${docId}?chunk=${encodeURIComponent(cited[0]!.chunk_id)}&page=1`);
  t.deepEqual(await c.accessibilityViolations(), []);
  await press(link);
  await page.waitForURL((url) => url.pathname === `/knowledge-bases/${kbId}/documents/${docId}`);
  await page.getByRole('heading', { name: 'zephyr-notes.md' }).waitFor();
  t.deepEqual(c.pageErrors, []);
});
