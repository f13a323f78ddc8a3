// The landing page's script in Chromium, against a loopback server that speaks the contract's wire
// format (test/helpers/landing-test-server.ts): a test of the page's mapping of docs/landing-page.md,
// not of the server routes (their end-to-end test drives the same page with the same driver).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { citation, demoAgent as demo, landingBrowserSuite } from '../helpers/landing-browser-suite.ts';

const suite = landingBrowserSuite();
const { test, open } = suite;

test('a visitor sees the agent, asks, reads the streamed answer, opens its citation and rates it', async (t) => {
  const { driver, page, close } = await open(suite.server.agent(demo('journey')));
  t.teardown(close);
  t.is(await driver.heading().textContent(), 'Handbook helper');
  t.true((await driver.log().textContent())!.includes('Ask me about the staff handbook.'));

  // Every text the answer shows on its way: streamed, it grows piece by piece.
  await page.evaluate(() => {
    const seen: string[] = ((window as { seen?: string[] }).seen = []);
    new MutationObserver(() => seen.push(document.querySelector('#kbqa-log .msg.agent:last-child p')?.textContent ?? '')).observe(document.getElementById('kbqa-log')!, { subtree: true, childList: true, characterData: true });
  });
  const answer = await driver.ask('How much leave?');
  t.is(await answer.locator('p').textContent(), 'Up to five days carry over 1.');
  const seen = await page.evaluate(() => (window as { seen?: string[] }).seen!);
  t.true(seen.includes('Up to five days '), 'the first piece is shown before the rest arrives');
  t.deepEqual(suite.server.recorded.chats.at(-1)!.body, { messages: [{ role: 'user', content: 'How much leave?' }], stream: true });

  const panel = await driver.openCitation(1);
  t.true((await panel.textContent())!.includes('handbook.pdf'));
  t.true((await panel.textContent())!.includes('carry over five days'));
  const image = driver.pageImage(3, 'handbook.pdf');
  await page.waitForFunction((img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0, await image.elementHandle());
  t.is(await image.getAttribute('src'), '/a/journey/pages/doc_1/3?char_start=10&char_end=80');
  await driver.closeCitation();

  await driver.rate('Helpful');
  t.deepEqual(suite.server.recorded.feedback.at(-1), { slug: 'journey', body: { message_id: 'msg_journey', rating: 'up' } });
});

test('a suggested question is asked with one click, and the next question sends the conversation so far', async (t) => {
  const { driver, close } = await open(suite.server.agent(demo('suggested')));
  t.teardown(close);
  const before = await driver.counts();
  await driver.suggestedQuestion('How much leave carries over?').click();
  await driver.answered(before);
  await driver.ask('And sick leave?');
  const { messages } = suite.server.recorded.chats.at(-1)!.body as { messages: unknown[] };
  t.deepEqual(messages, [
    { role: 'user', content: 'How much leave carries over?' },
    { role: 'assistant', content: 'Up to five days carry over [1].' },
    { role: 'user', content: 'And sick leave?' },
  ]);
});

const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>';

// bypassCSP: the CSP would stop an injected script anyway; this checks the page never makes one.
test('markup in the name, opening message, suggestions or answer stays text, even without the CSP', async (t) => {
  const agent = demo('hostile', { answers: { default: { chunks: ['Look: ', HOSTILE, ' [1]'], citations: [{ ...citation('hostile'), source: HOSTILE }] } } });
  agent.view = { ...agent.view, name: `Evil ${HOSTILE}`, opening_message: HOSTILE, suggested_questions: [HOSTILE] };
  const { driver, page, close } = await open(suite.server.agent(agent), { bypassCSP: true });
  t.teardown(close);
  t.is(await driver.heading().textContent(), `Evil ${HOSTILE}`);
  const answer = await driver.ask('hi');
  t.is(await answer.locator('p').textContent(), `Look: ${HOSTILE} 1`);
  await driver.openCitation(1);
  t.is(await page.locator('img').count(), 1, 'only the page image, none from the markup');
  t.is(await page.evaluate(() => (window as { __pwned?: number }).__pwned), undefined);
});

test('in a Chinese browser the page speaks Simplified Chinese', async (t) => {
  const { page, close } = await open(suite.server.agent(demo('zh')), { locale: 'zh-CN' });
  t.teardown(close);
  t.is(await page.locator('html').getAttribute('lang'), 'zh-CN');
  await page.getByRole('textbox', { name: '消息' }).fill('多少年假？');
  await page.getByRole('button', { name: '发送' }).click();
  await page.getByRole('button', { name: '引用 1' }).click();
  await page.getByRole('img', { name: 'handbook.pdf 第 3 页' }).waitFor();
  t.pass();
});

test('keyboard only: Tab to the box, Enter sends, Shift+Enter is a new line, citations and thumbs by keys', async (t) => {
  const { driver, page, close } = await open(suite.server.agent(demo('keys')));
  t.teardown(close);
  // Tab past the suggested question to the message box.
  await page.keyboard.press('Tab');
  t.is(await page.evaluate(() => document.activeElement?.textContent), 'How much leave carries over?');
  await page.keyboard.press('Tab');
  t.is(await page.evaluate(() => document.activeElement?.id), 'kbqa-message');
  await page.keyboard.type('first line');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type('second line');
  const before = await driver.counts();
  await page.keyboard.press('Enter');
  await driver.answered(before);
  t.is((suite.server.recorded.chats.at(-1)!.body.messages as { content: string }[])[0]!.content, 'first line\nsecond line');

  // The focus is back in the box; Shift+Tab walks back through the answer to its controls.
  await focusByTab(page, 'Citation 1');
  await page.keyboard.press('Enter');
  await driver.pageImage(3, 'handbook.pdf').waitFor();
  await page.keyboard.press('Escape');
  t.is(await page.getByRole('dialog').count(), 0);
  t.is(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Citation 1', 'the focus returns to the citation');
  await focusByTab(page, 'Not helpful');
  await page.keyboard.press('Space');
  await page.getByRole('status').filter({ hasText: 'Thanks' }).waitFor();
  t.deepEqual(suite.server.recorded.feedback.at(-1)!.body, { message_id: 'msg_keys', rating: 'down' });
  // Focus is drawn: the focused control has a visible outline.
  t.not(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle), 'none');
});

/** Presses Tab (forwards) until the focused element is named `name`; fails after 30 presses. */
async function focusByTab(page: Page, name: string) {
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent?.trim());
    if (focused === name || focused?.endsWith(name)) return;
  }
  throw new Error(`no focusable control named ${name}`);
}

// axe-core is the engine of Lighthouse's accessibility score; the bench scores the page as it opens,
// this checks it mid-conversation: an answer with its citation and thumbs, the citation panel open.
test('mid-conversation, with the citation panel open, axe finds no WCAG 2.2 A/AA violation', async (t) => {
  const { driver, page, close } = await open(suite.server.agent(demo('axe')), { bypassCSP: true });
  t.teardown(close);
  await driver.ask('How much leave?');
  await driver.openCitation(1);
  await driver.pageImage(3, 'handbook.pdf').waitFor();
  await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: unknown) => Promise<{ violations: { id: string; help: string }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'] } });
    return result.violations.map((v) => `${v.id}: ${v.help}`);
  });
  t.deepEqual(violations, []);
});
