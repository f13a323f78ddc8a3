import type { Frame, Locator, Page } from 'playwright-core';

/**
 * The landing page as a visitor uses it, found by role and accessible name (STYLE.md: Testing
 * Library's rule), in English. The same driver serves the page's tests against the loopback server
 * (test/helpers/landing-test-server.ts) and the end-to-end test against the real one; given a
 * frame, the page as another site embeds it.
 */
export function landingPage(page: Page | Frame) {
  const log = page.getByRole('log');
  const answers = log.locator('.msg.agent');
  const questions = log.locator('.msg.user');
  const driver = {
    page,
    heading: () => page.getByRole('heading', { level: 1 }),
    log: () => log,
    status: () => page.getByRole('status'),
    messageBox: () => page.getByRole('textbox', { name: 'Message' }),
    sendButton: () => page.getByRole('button', { name: 'Send', exact: true }),
    async goto(url: string) {
      await page.goto(url);
      // The script has run once the message box it builds is there (found by tag: any language).
      await page.locator('textarea').waitFor();
    },
    /** How many questions and answers the log holds: `answered(before)` waits for the next exchange. */
    async counts() {
      return { questions: await questions.count(), answers: await answers.count() };
    },
    /** Types the question and sends it with the Send button; resolves once it is over (the answer's locator). */
    async ask(question: string) {
      const before = await driver.counts();
      await driver.messageBox().fill(question);
      await driver.sendButton().click();
      return driver.answered(before);
    },
    /**
     * Waits for the exchange after `before` to end, answered or refused (the log is no longer busy),
     * and resolves to its answer's locator (absent when refused before any text came).
     */
    async answered(before: { questions: number; answers: number }): Promise<Locator> {
      await questions.nth(before.questions).waitFor();
      await page.waitForFunction(() => document.getElementById('kbqa-log')?.getAttribute('aria-busy') === 'false');
      return answers.nth(before.answers);
    },
    lastAnswer: () => answers.last(),
    suggestedQuestion: (text: string) => page.getByRole('navigation', { name: 'Suggested questions' }).getByRole('button', { name: text }),
    /** Opens citation `n` of the last answer; resolves to the panel. */
    async openCitation(n: number): Promise<Locator> {
      await answers.last().getByRole('button', { name: `Citation ${n}`, exact: true }).click();
      const panel = page.getByRole('dialog');
      await panel.waitFor();
      return panel;
    },
    pageImage: (page_: number, file: string) => page.getByRole('img', { name: `Page ${page_} of ${file}` }),
    closeCitation: () => page.getByRole('dialog').getByRole('button', { name: 'Close' }).click(),
    /** Rates the last answer; resolves once the page says thanks. */
    async rate(rating: 'Helpful' | 'Not helpful') {
      await answers.last().getByRole('button', { name: rating, exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Thanks' }).waitFor();
    },
    accessCodeBox: () => page.getByLabel('Access code'),
    async giveAccessCode(code: string) {
      await driver.accessCodeBox().fill(code);
      await page.getByRole('button', { name: 'Continue' }).click();
    },
  };
  return driver;
}

export type LandingPageDriver = ReturnType<typeof landingPage>;
