import anyTest, { type TestFn } from 'ava';
import type { Browser } from 'playwright-core';
import { chromiumForTests, launchChromium } from '../helpers/browser.ts';
import { sampleKnowledgeBase, type SampleKb } from '../helpers/knowledge-base.ts';
import { landingPage } from '../helpers/landing-page-driver.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// The whole path a visitor takes, end to end: the real server, an agent published through the API,
// its page in a fresh browser context (no key, no cookie), a streamed answer from the sample
// knowledge base, a citation opened on the highlighted page image, and feedback the server keeps.

const chromium = chromiumForTests();
const test = (chromium ? anyTest.serial : anyTest.serial.skip) as TestFn;

let browser: Browser;
let server: TestServer;
let kb: SampleKb;

anyTest.before(async () => {
  if (!chromium) return;
  [browser, server] = await Promise.all([launchChromium(chromium), startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0' })]);
  kb = await sampleKnowledgeBase(server);
});
anyTest.after.always(async () => {
  await browser?.close();
  await server?.close();
});

async function publish(extra: Record<string, unknown> = {}) {
  const created = await server.call('POST', '/v1/agents', {
    json: { name: 'Turbine helper', model: 'kbqa-extractive', knowledge_base_ids: [kb.kbId], opening_message: 'Ask me about the Zephyr-9.', suggested_questions: ['How long is each Zephyr-9 blade?'], ...extra },
  });
  const publication = await server.call('POST', `/v1/agents/${created.body.id}/publish`);
  return { id: created.body.id as string, url: `${server.url}${publication.body.public_url}` };
}

test('a visitor asks a published agent, sees the streamed answer, opens a citation on its highlighted page and rates the answer', async (t) => {
  const { url } = await publish();
  const context = await browser.newContext({ locale: 'en-US' });
  try {
    const page = await context.newPage();
    const imageRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/pages/')) imageRequests.push(request.url());
    });
    const driver = landingPage(page);
    await driver.goto(url);
    t.is(await driver.heading().textContent(), 'Turbine helper');
    t.true((await driver.log().textContent())!.includes('Ask me about the Zephyr-9.'));

    // The suggested question asks itself; the answer arrives as a stream of chunks into the log.
    const before = await driver.counts();
    await driver.suggestedQuestion('How long is each Zephyr-9 blade?').click();
    const answer = await driver.answered(before);
    t.true((await answer.textContent())!.includes('78'));

    // Some citation of the answer is the PDF's page: its preview is the page image, the passage highlighted by the server.
    const markers = answer.getByRole('button', { name: /^Citation \d+$/ });
    const count = await markers.count();
    t.true(count > 0, 'the answer cites its sources');
    let opened = false;
    for (let i = 0; i < count && !opened; i++) {
      const n = Number((await markers.nth(i).textContent())!.replace(/\D/g, '')) || i + 1;
      const panel = await driver.openCitation(n);
      if ((await panel.textContent())!.includes('zephyr-9.pdf')) {
        const image = panel.getByRole('img', { name: /^Page \d+ of zephyr-9\.pdf$/ });
        await image.waitFor();
        await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await image.elementHandle());
        opened = true;
      }
      await driver.closeCitation();
    }
    t.true(opened, 'a citation opened the PDF page');
    t.true(
      imageRequests.some((u) => /char_start=\d+&char_end=\d+/.test(u)),
      'the page image was asked for with the cited span to highlight',
    );

    await driver.rate('Helpful');
    // The visitor's conversation is on the server, under their cookie: a reload restores it.
    await driver.goto(url);
    // The history comes after the page's script has run: until it does, the last answer is the opening message.
    await driver.log().locator('.msg.agent', { hasText: '78' }).first().waitFor();
    t.true((await driver.lastAnswer().textContent())!.includes('78'));
  } finally {
    await context.close();
  }
});

test('an agent whose name and answer carry markup shows it as text: nothing of it runs', async (t) => {
  const { url } = await publish({ name: 'Helper <img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>', opening_message: '<b onmouseover="window.__pwned=1">hi</b>' });
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const driver = landingPage(page);
    await driver.goto(url);
    t.true((await driver.heading().textContent())!.includes('<script>'));
    await driver.ask('<script>window.__pwned=1</script> How long is each Zephyr-9 blade?');
    t.is(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  } finally {
    await context.close();
  }
});

test('an agent behind an access code asks for it, then answers a conversation of several questions', async (t) => {
  const { url } = await publish({ public: { access_code: 'turbine-42' } });
  const context = await browser.newContext();
  try {
    const driver = landingPage(await context.newPage());
    await driver.goto(url);
    await driver.accessCodeBox().waitFor();
    await driver.giveAccessCode('turbine-42');
    const first = await driver.ask('How long is each Zephyr-9 blade?');
    t.true((await first.textContent())!.includes('78'));
    // The page sends the conversation so far, as chat completions take it; the server answers the last question.
    const second = await driver.ask('What is the rated power of the Zephyr-9?');
    t.truthy((await second.textContent())!.trim());
    t.is((await driver.counts()).questions, 2);
  } finally {
    await context.close();
  }
});
