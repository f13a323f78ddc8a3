import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { closeConsoleBrowser, consoleBrowserForTests, openConsole } from '../helpers/console-browser.ts';

const chromium = consoleBrowserForTests();
const serial = chromium ? test.serial : test.serial.skip;
test.after.always(closeConsoleBrowser);

const SAMPLES = ['zephyr-9.pdf', 'service-notes.docx', 'prices.xlsx'].map((name) => ({ name, mimeType: 'application/octet-stream', buffer: readFileSync(join('samples', name)) }));

/**
 * A new user's whole journey through the console (issue 33), against the real server: sign in,
 * create a knowledge base, upload the samples and watch them become ready, test retrieval, chat,
 * open a citation and see its page, then make a read key and see the console without its write
 * controls. Only the names a person reads are used to find things.
 */
serial('a new user: sign in, create a knowledge base, upload, ready, retrieval, chat with a cited page, a read key', async (t) => {
  t.timeout(120_000);
  const started = Date.now();
  const c = await openConsole(t, chromium!);
  const { page } = c;
  await c.signIn();

  await page.getByRole('button', { name: 'New knowledge base' }).click();
  await page.getByRole('dialog').getByRole('textbox', { name: 'Name' }).fill('Zephyr manuals');
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('heading', { level: 1, name: 'Zephyr manuals' }).waitFor();

  await page.getByLabel('Upload documents').setInputFiles(SAMPLES);
  for (const { name } of SAMPLES) {
    await page.getByRole('row').filter({ has: page.getByRole('rowheader', { name }) }).getByText('ready', { exact: true }).waitFor({ timeout: 45_000 });
  }
  await c.screenshot('journey-documents');

  await page.getByRole('link', { name: 'Retrieval testing' }).click();
  await page.getByRole('textbox', { name: 'Query' }).fill('How long is a Zephyr-9 blade?');
  await page.getByRole('button', { name: 'Test retrieval' }).click();
  await page.getByText(/78 metres/).first().waitFor();

  await page.getByRole('navigation').getByRole('link', { name: 'Chat' }).click();
  // React Aria draws its own box over the visually hidden input, which a person clicks through.
  await page.getByRole('checkbox', { name: 'Zephyr manuals' }).check({ force: true });
  await page.getByRole('textbox', { name: 'Message' }).fill('How long is each Zephyr-9 blade?');
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('button', { name: 'Citation 1' }).click();
  const cited = page.getByRole('img', { name: /^Page \d+ of zephyr-9\.pdf$/ });
  await cited.waitFor();
  const quoted = (await page.locator('mark').allInnerTexts()).filter((text) => text.trim().length > 10);
  t.true(quoted.length > 0, 'the quote is highlighted in its passage');
  await c.screenshot('journey-chat');

  await page.getByRole('navigation').getByRole('link', { name: 'API keys' }).click();
  await page.getByRole('button', { name: 'New API key' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Name' }).fill('reader');
  await dialog.getByRole('radio', { name: /^read/ }).check({ force: true });
  await dialog.getByRole('button', { name: 'Create' }).click();
  const secret = await page.getByRole('textbox', { name: 'API key secret' }).inputValue();
  t.regex(secret, /^kbqa-/);
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });

  await page.getByRole('button', { name: 'Sign out' }).click();
  await c.signIn(secret);
  await page.getByRole('link', { name: 'Zephyr manuals' }).click();
  await page.getByRole('row').first().waitFor();
  t.is(await page.getByLabel('Upload documents').count(), 0, 'a read key sees no upload');
  await page.getByRole('navigation').getByRole('link', { name: 'Knowledge bases' }).click();
  await page.getByRole('link', { name: 'Zephyr manuals' }).waitFor();
  t.is(await page.getByRole('button', { name: 'New knowledge base' }).count(), 0, 'nor a way to create one');

  t.deepEqual(c.cspViolations, []);
  t.deepEqual(c.pageErrors, []);
  // Measured, not a timing assertion: the goal (under 60 s) is reported by the bench and the docs.
  t.log(`journey: ${((Date.now() - started) / 1000).toFixed(1)} s`);
});
