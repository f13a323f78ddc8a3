import test from 'ava';
import { ADMIN_KEY } from '../helpers/admin-key.ts';
import { closeConsoleBrowser, consoleBrowserForTests, openConsole } from '../helpers/console-browser.ts';
import { settledDocument } from '../helpers/documents.ts';
import { startEmbeddingsServer, type EmbeddingsServer } from '../helpers/openai-compatible-server.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Chunking and re-indexing on a knowledge base's settings, against a runtime whose second
// embedding model is a slow loopback provider, so a re-index lasts long enough to watch.
const chromium = consoleBrowserForTests();
const serial = chromium ? test.serial : test.serial.skip;
let server: TestServer | undefined;
let provider: EmbeddingsServer | undefined;

test.before(async () => {
  if (!chromium) return;
  provider = await startEmbeddingsServer({ dimensions: 16, delayMs: 600 });
  server = await startServer({ OPENAI_API_KEY: 'sk-loopback', OPENAI_BASE_URL: provider.baseUrl, KBQA_OPENAI_EMBEDDING_MODELS: 'loop-embed:16' });
});
test.after.always(async () => {
  await closeConsoleBrowser();
  await server?.close();
  await provider?.close();
});

const createKb = async (name: string) => (await server!.call('POST', '/v1/knowledge-bases', { key: ADMIN_KEY, json: { name } })).body;

serial('chunking: size and overlap saved from the settings, and the API’s refusal shown at the field it names', async (t) => {
  const kb = await createKb('Chunked');
  const c = await openConsole(t, chromium!, { server });
  const { page } = c;
  await c.signIn();
  await page.goto(`${server!.url}/knowledge-bases/${kb.id}/settings`);
  const size = page.getByRole('textbox', { name: 'Chunk size (tokens)' });
  const overlap = page.getByRole('textbox', { name: 'Chunk overlap (tokens)' });
  t.is(await size.inputValue(), '512');
  await size.fill('256');
  await overlap.fill('32');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Saved.').waitFor();
  t.deepEqual((await server!.call('GET', `/v1/knowledge-bases/${kb.id}`, { key: ADMIN_KEY })).body.settings.chunking, { max_tokens: 256, overlap_tokens: 32 });
  await page.reload();
  t.is(await page.getByRole('textbox', { name: 'Chunk size (tokens)' }).inputValue(), '256');

  // Within its own range, but not below the chunk size: only the API knows both, and names the field.
  await page.getByRole('textbox', { name: 'Chunk overlap (tokens)' }).fill('300');
  await page.getByRole('button', { name: 'Save' }).click();
  const field = page.locator('.react-aria-TextField').filter({ has: page.getByRole('textbox', { name: 'Chunk overlap (tokens)' }) });
  await field.getByText('settings.chunking.overlap_tokens: must be smaller than chunking.max_tokens').waitFor();
  t.is(await page.getByRole('textbox', { name: 'Chunk overlap (tokens)' }).getAttribute('aria-invalid'), 'true');
  t.is(await page.getByRole('alert').filter({ hasText: 'overlap_tokens' }).count(), 0, 'not repeated under the form');
  t.is((await server!.call('GET', `/v1/knowledge-bases/${kb.id}`, { key: ADMIN_KEY })).body.settings.chunking.overlap_tokens, 32);
  t.deepEqual(await c.accessibilityViolations(), []);
  await c.screenshot('knowledge-base-chunking');
  t.deepEqual(c.pageErrors, []);
});

serial('after the embedding model changed, the Re-index button re-embeds the documents, its progress bar counting them until done', async (t) => {
  const kb = await createKb('Moving');
  for (const [i, text] of ['Basalt is a volcanic rock.', 'Sourdough rises slowly overnight.', 'Turbines turn wind into power.'].entries()) {
    const up = await server!.call('POST', `/v1/knowledge-bases/${kb.id}/documents`, { key: ADMIN_KEY, json: { name: `d${i}.txt`, text } });
    await settledDocument(server!, kb.id, up.body.data[0].id);
  }
  const c = await openConsole(t, chromium!, { server });
  const { page } = c;
  await c.signIn();
  await page.goto(`${server!.url}/knowledge-bases/${kb.id}/settings`);
  await page.getByRole('button', { name: /Embedding model/ }).click();
  await page.getByRole('option', { name: 'loop-embed' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Saved.').waitFor();
  await page.getByText('The embedding model changed: documents indexed before keep their old vectors until you re-index.').waitFor();

  // Every state the bar passes through, as a screen reader would read it.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    new MutationObserver(() => {
      const bar = document.querySelector('[role="progressbar"]');
      if (bar) seen.push(`${bar.getAttribute('aria-valuenow')}/${bar.getAttribute('aria-valuemax')} ${bar.getAttribute('aria-valuetext')}`);
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  await page.getByRole('button', { name: 'Re-index', exact: true }).click();
  await page.getByRole('progressbar', { name: 'Re-embedding with loop-embed' }).waitFor();
  await page.getByText(/Last re-index: 3 documents \(\d+ chunks\) with loop-embed/).waitFor({ timeout: 30_000 });
  const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
  t.true(
    seen.some((state) => /^[0-3]\/3 [0-3] of 3 documents$/.test(state)),
    `the bar counted documents: ${[...new Set(seen)].join(' | ')}`,
  );
  t.is(await page.getByRole('progressbar').count(), 0, 'gone once finished');
  t.is(await page.getByText('The embedding model changed').count(), 0, 'the notice went with the re-index it asked for');
  const { reindex } = (await server!.call('GET', `/v1/knowledge-bases/${kb.id}`, { key: ADMIN_KEY })).body;
  t.like(reindex, { status: 'succeeded', done: 3, total: 3, embedding_model: 'loop-embed' });
  t.deepEqual(await c.accessibilityViolations(), []);
  await c.screenshot('knowledge-base-reindexed');
  t.deepEqual(c.cspViolations, []);
  t.deepEqual(c.pageErrors, []);
});

serial('in Simplified Chinese: the chunking fields and the re-index action are labelled', async (t) => {
  const kb = await createKb('分块');
  const c = await openConsole(t, chromium!, { server });
  const { page } = c;
  await c.signIn();
  await page.getByLabel('Language').selectOption('zh-CN');
  await page.goto(`${server!.url}/knowledge-bases/${kb.id}/settings`);
  await page.getByRole('textbox', { name: '分块大小（token）' }).waitFor();
  await page.getByRole('textbox', { name: '分块重叠（token）' }).waitFor();
  await page.getByRole('button', { name: '重建索引', exact: true }).waitFor();
  t.deepEqual(c.pageErrors, []);
});
