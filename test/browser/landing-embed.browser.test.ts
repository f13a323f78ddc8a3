// The embed script (web/landing/embed.ts) on another origin's page, and the page's frame-ancestors.
import { demoAgent as demo, landingBrowserSuite } from '../helpers/landing-browser-suite.ts';
import { eventually } from '../helpers/temp.ts';

const suite = landingBrowserSuite();
const { test } = suite;

test('the embed script adds an "Open chat" bubble that opens the page in a frame, where the agent allows the site', async (t) => {
  suite.server.agent(demo('embedded', { allowedOrigins: [new URL(suite.server.hostUrl('x')).origin] }));
  const context = await suite.browser.newContext({ locale: 'en-US' });
  t.teardown(() => context.close());
  const page = await context.newPage();
  await page.goto(suite.server.hostUrl('embedded'));
  const bubble = page.getByRole('button', { name: 'Open chat' });
  t.is(await bubble.getAttribute('aria-expanded'), 'false');
  t.is(await page.locator('iframe').getAttribute('src'), null, 'the page loads on first open only');
  await bubble.focus();
  await page.keyboard.press('Enter');
  t.is(await page.getByRole('button', { name: 'Close chat' }).getAttribute('aria-expanded'), 'true');
  const frame = page.frameLocator('iframe[title="Chat"]');
  await frame.getByRole('heading', { name: 'Handbook helper' }).waitFor();
  await frame.getByRole('textbox', { name: 'Message' }).fill('How much leave?');
  await frame.getByRole('button', { name: 'Send' }).click();
  await frame.getByRole('button', { name: 'Citation 1' }).waitFor();
  t.is(page.frames()[1]!.url(), suite.server.agent(demo('embedded', { allowedOrigins: [new URL(suite.server.hostUrl('x')).origin] })));
  t.is(suite.server.recorded.chats.at(-1)!.slug, 'embedded');
});

test('a site the agent does not allow cannot frame the page (frame-ancestors)', async (t) => {
  suite.server.agent(demo('unframed'));
  const context = await suite.browser.newContext();
  t.teardown(() => context.close());
  const page = await context.newPage();
  await page.goto(suite.server.hostUrl('unframed'));
  await page.getByRole('button', { name: 'Open chat' }).click();
  // Chromium refuses the response and shows its error page in the frame instead.
  const url = await eventually(() => page.frames()[1]?.url().startsWith('chrome-error:') && page.frames()[1]!.url());
  t.truthy(url);
  t.is(await page.frameLocator('iframe').getByRole('heading', { name: 'Handbook helper' }).count(), 0);
});
