import test from 'ava';
import { closeConsoleBrowser, consoleBrowserForTests, openConsole } from '../helpers/console-browser.ts';
import { readKey, SAMPLE_PDF, sampleKnowledgeBaseWithPdf } from '../helpers/console-sample.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const chromium = consoleBrowserForTests();
const serial = chromium ? test.serial : test.serial.skip;
let server: TestServer | undefined;
let kbId = '';

test.before(async () => {
  if (!chromium) return;
  server = await startServer();
  ({ kbId } = await sampleKnowledgeBaseWithPdf(server));
});
test.after.always(async () => {
  await closeConsoleBrowser();
  await server?.close();
});

serial('retrieval testing: hits with each recall’s score, the coverage verdict with its terms, a hit opens its page image', async (t) => {
  const c = await openConsole(t, chromium!, { server });
  await c.signIn();
  await c.page.goto(`${server!.url}/knowledge-bases/${kbId}/retrieval`);
  await c.page.getByLabel('Query').fill('How long is a Zephyr-9 blade?');
  await c.page.getByRole('button', { name: 'Test retrieval' }).click();

  const hits = c.page.getByRole('region', { name: 'Retrieved passages' }).getByRole('listitem').filter({ hasText: SAMPLE_PDF });
  await hits.first().waitFor();
  const blade = hits.filter({ hasText: '78 metres' });
  const scores = await blade.locator('.hit-scores').innerText();
  for (const stage of ['Score', 'Vector', 'Keyword', 'Graph', 'Fused', 'Rerank']) t.true(scores.includes(stage), scores);
  t.regex(scores, /Vector\s*0\.\d{3}/);
  t.true((await blade.locator('mark').allInnerTexts()).some((word) => /^blade/i.test(word)), 'the query’s terms are marked in the passage');
  t.regex(await c.page.locator('.verdict').innerText(), /Answerable[\s\S]*Coverage [01]\.\d\d/);
  t.true(await c.page.locator('.coverage-terms li.term-held').count() > 0);

  await blade.getByRole('button', { name: `Show page 2 of ${SAMPLE_PDF}` }).click();
  const image = c.page.getByRole('img', { name: `Page 2 of ${SAMPLE_PDF}` });
  await image.waitFor();
  t.true(await c.page.locator('.retrieval-page .page-image .box').count() > 0, 'the hit’s lines are drawn over the page');
  await c.page.waitForFunction(() => (document.querySelector('.retrieval-page img') as HTMLImageElement | null)?.complete === true);

  t.deepEqual(await c.accessibilityViolations(), []);
  await c.screenshot('retrieval-testing');
  t.deepEqual(c.cspViolations, []);
  t.deepEqual(c.pageErrors, []);
});

serial('a question the knowledge base does not hold is shown as not covered, with the missing terms', async (t) => {
  const c = await openConsole(t, chromium!, { server });
  await c.signIn();
  await c.page.goto(`${server!.url}/knowledge-bases/${kbId}/retrieval`);
  await c.page.getByLabel('Query').fill('Who won the FIFA world cup final?');
  await c.page.getByRole('button', { name: 'Test retrieval' }).click();
  await c.page.locator('.verdict').waitFor();
  t.regex(await c.page.locator('.verdict').innerText(), /Not covered/);
  t.true(await c.page.locator('.coverage-terms li.term-missing').count() > 0);
});

serial('coverage chips show the question’s words as typed, not the stems the index compares', async (t) => {
  const c = await openConsole(t, chromium!, { server });
  await c.signIn();
  await c.page.goto(`${server!.url}/knowledge-bases/${kbId}/retrieval`);
  await c.page.getByLabel('Query').fill('Does TraceMonkey tune the Zephyr-9 blades?');
  await c.page.getByRole('button', { name: 'Test retrieval' }).click();
  await c.page.locator('.coverage-terms li').first().waitFor();
  const chips = await c.page.locator('.coverage-terms li').allInnerTexts();
  t.true(chips.some((chip) => chip.includes('TraceMonkey')), chips.join(' | '));
  t.true(chips.some((chip) => chip.includes('blades')), chips.join(' | '));
  t.false(chips.some((chip) => /tracemonkei/.test(chip)), chips.join(' | '));
  await c.page.getByText('TraceMonkey: missing, in 0 passages').waitFor({ state: 'attached' });
  t.deepEqual(c.pageErrors, []);
});

serial('a read key may test retrieval (search is a read): the form is there and answers', async (t) => {
  const c = await openConsole(t, chromium!, { server });
  await c.signIn(await readKey(server!));
  await c.page.goto(`${server!.url}/knowledge-bases/${kbId}/retrieval`);
  await c.page.getByLabel('Query').fill('rotor diameter');
  await c.page.getByRole('button', { name: 'Test retrieval' }).click();
  await c.page.getByRole('region', { name: 'Retrieved passages' }).getByRole('listitem').first().waitFor();
  await c.page.getByLabel('Retrieval mode').click();
  await c.page.getByRole('option', { name: 'Keyword' }).click();
  await c.page.getByRole('button', { name: 'Test retrieval' }).click();
  await c.page.getByText(/· Keyword ·/).waitFor();
  t.deepEqual(c.pageErrors, []);
});
