// The embed script (web/landing/embed.ts) on another origin's page, and the page's frame-ancestors;
// and the real server's page framed by another site, where its visitor cookie must hold.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sampleKnowledgeBase } from '../helpers/knowledge-base.ts';
import { demoAgent as demo, landingBrowserSuite } from '../helpers/landing-browser-suite.ts';
import { landingPage } from '../helpers/landing-page-driver.ts';
import { startServer } from '../helpers/server.ts';
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

test('framed by another site, the real page keeps its visitor: two questions, a cited page, feedback, and the conversation after a reload', async (t) => {
  // The agent's page at http://127.0.0.1:<port>, framed by a page at http://localhost:<port2>: another site.
  const server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0' });
  const host = createServer((_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(hostPage));
  let hostPage = '';
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  t.teardown(async () => {
    host.close();
    await server.close();
  });
  const hostOrigin = `http://localhost:${(host.address() as AddressInfo).port}`;
  const kb = await sampleKnowledgeBase(server);
  const created = await server.call('POST', '/v1/agents', { json: { name: 'Turbine helper', model: 'kbqa-extractive', knowledge_base_ids: [kb.kbId], public: { allowed_origins: [hostOrigin] } } });
  const publication = await server.call('POST', `/v1/agents/${created.body.id}/publish`);
  hostPage = `<!doctype html><title>Another site</title>${publication.body.embed.iframe}`;

  const context = await suite.browser.newContext({ locale: 'en-US' });
  t.teardown(() => context.close());
  const page = await context.newPage();
  const framed = async () => {
    await page.goto(`${hostOrigin}/`);
    const frame = await eventually(() => page.frames().find((f) => f.url().includes('/a/')));
    await frame!.locator('textarea').waitFor();
    return landingPage(frame!);
  };
  const driver = await framed();
  const first = await driver.ask('How long is each Zephyr-9 blade?');
  t.true((await first.textContent())!.includes('78'));
  const second = await driver.ask('What is the rated power of the Zephyr-9?');
  t.truthy((await second.textContent())!.trim());

  // A cited page of the PDF: drawn for this visitor only, so it shows only if the cookie held.
  const markers = second.getByRole('button', { name: /^Citation \d+$/ });
  let drawn = false;
  for (let i = 0; i < (await markers.count()) && !drawn; i++) {
    const n = Number((await markers.nth(i).textContent())!.replace(/\D/g, '')) || i + 1;
    const panel = await driver.openCitation(n);
    if ((await panel.textContent())!.includes('zephyr-9.pdf')) {
      const image = panel.getByRole('img', { name: /^Page \d+ of zephyr-9\.pdf$/ });
      await image.waitFor();
      drawn = await image.evaluate((el) => new Promise<boolean>((resolve) => {
        const img = el as HTMLImageElement;
        if (img.complete) return resolve(img.naturalWidth > 0);
        img.addEventListener('load', () => resolve(img.naturalWidth > 0));
        img.addEventListener('error', () => resolve(false));
      }));
    }
    await driver.closeCitation();
  }
  t.true(drawn, 'the cited page image loaded in the frame');
  await driver.rate('Helpful');

  const again = await framed();
  await again.lastAnswer().waitFor();
  t.is((await again.counts()).questions, 2, 'the reload restored this visitor’s two questions');
});
