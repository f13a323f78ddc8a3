import anyTest, { type TestFn } from 'ava';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { chromiumForTests, launchChromium } from './browser.ts';
import { landingPage } from './landing-page-driver.ts';
import { type Citation, startLandingTestServer, type TestAgent } from './landing-test-server.ts';

type Server = Awaited<ReturnType<typeof startLandingTestServer>>;

/**
 * One browser test file's setup: Chromium and the loopback server, started once for the file and
 * closed after it; `test` is serial (one page at a time on a shared machine) and skips, saying why,
 * where there is no Chromium. Each test opens its own browser context: no cookie or storage leaks.
 */
export function landingBrowserSuite() {
  const chromium = chromiumForTests();
  const test = (chromium ? anyTest.serial : anyTest.serial.skip) as TestFn;
  const suite = { test, browser: undefined as unknown as Browser, server: undefined as unknown as Server, open };
  anyTest.before(async () => {
    if (!chromium) return;
    [suite.browser, suite.server] = await Promise.all([launchChromium(chromium), startLandingTestServer()]);
  });
  anyTest.after.always(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });
  /** A fresh context (English unless `locale` says otherwise) on the page at `url`, its script running. */
  async function open(url: string, options: BrowserContextOptions = {}) {
    const context = await suite.browser.newContext({ locale: 'en-US', ...options });
    const page = await context.newPage();
    const driver = landingPage(page);
    await driver.goto(url);
    return { driver, page, close: () => context.close() };
  }
  return suite;
}

export const citation = (slug: string): Citation => ({
  index: 1,
  source: 'handbook.pdf',
  page: 3,
  paragraph: 'Staff may carry over five days of leave.',
  quote: 'carry over five days',
  image_url: `/a/${slug}/pages/doc_1/3?char_start=10&char_end=80`,
});

/** The handbook agent at `/a/{slug}`: one suggested question, and an answer citing page 3 of handbook.pdf. */
export function demoAgent(slug: string, extra: Partial<TestAgent> = {}): TestAgent {
  return {
    view: { slug, name: 'Handbook helper', opening_message: 'Ask me about the staff handbook.', suggested_questions: ['How much leave carries over?'], access_code_required: false },
    answers: { default: { id: `msg_${slug}`, chunks: ['Up to five days ', 'carry over [1]', '.'], citations: [citation(slug)] } },
    ...extra,
  };
}
