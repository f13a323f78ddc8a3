import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { closeConsoleBrowser, consoleBrowserForTests, openConsole } from '../helpers/console-browser.ts';
import { settledDocument, uploadFiles } from '../helpers/documents.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const chromium = consoleBrowserForTests();
const serial = chromium ? test.serial : test.serial.skip;
let server: TestServer | undefined;
test.before(async () => {
  if (chromium) server = await startServer();
});
test.after.always(async () => {
  await closeConsoleBrowser();
  await server?.close();
});

async function knowledgeBase(name: string): Promise<string> {
  const { body } = await server!.call('POST', '/v1/knowledge-bases', { json: { name } });
  return body.id as string;
}

async function readyDocument(kbId: string, name: string, bytes: Buffer | string): Promise<string> {
  const up = await uploadFiles(server!, kbId, [{ name, bytes }]);
  const doc = await settledDocument(server!, kbId, up.body.data[0].id, 120_000);
  if (doc.status !== 'ready') throw new Error(`${name} ${doc.status}`);
  return doc.id as string;
}

/** A note with many short sections and one line no browser can break by itself (a long address). */
const LONG_WORD = `https://example.com/${'zephyr'.repeat(60)}`;
const NOTES = Array.from({ length: 30 }, (_, i) => `# Section ${i + 1}\n\nThe Zephyr blade ${i + 1} is checked every ${i + 2} months.${i === 3 ? ` See ${LONG_WORD} for the log.` : ''}\n`).join('\n');

serial('chunk cards fit their column, a click keeps the chunk where it was, the selection is a border, not bold', async (t) => {
  const kbId = await knowledgeBase('Chunks');
  const notesId = await readyDocument(kbId, 'notes.md', NOTES);
  const pdfId = await readyDocument(kbId, 'zephyr-9.pdf', readFileSync(join('samples', 'zephyr-9.pdf')));
  const c = await openConsole(t, chromium!, { server });
  await c.signIn();
  const { page } = c;

  await page.goto(`${server!.url}/knowledge-bases/${kbId}/documents/${notesId}`);
  const list = page.getByRole('listbox', { name: /notes\.md/ });
  await list.getByRole('option').nth(29).waitFor({ state: 'attached' });
  const overflowing = await page.evaluate(() => {
    const column = document.querySelector('.chunk-list')!.closest('.grid-2 > *')!.getBoundingClientRect();
    return [...document.querySelectorAll<HTMLElement>('.chunk-list [role="option"]')]
      .filter((o) => o.getBoundingClientRect().right > column.right + 1 || o.scrollWidth > o.clientWidth + 1)
      .map((o) => o.querySelector('.chunk-meta span')?.textContent);
  });
  t.deepEqual(overflowing, [], 'every card within its column, its text wrapped');

  // The page images: scrolled down to read, then a chunk on another page is chosen.
  await page.goto(`${server!.url}/knowledge-bases/${kbId}/documents/${pdfId}`);
  await page.getByRole('img', { name: 'Page 1 of zephyr-9.pdf' }).waitFor();
  await page.waitForFunction(() => (document.querySelector('.chunk-preview img') as HTMLImageElement | null)?.complete === true);
  const options = page.getByRole('listbox', { name: /zephyr-9\.pdf/ }).getByRole('option');
  const pages = await options.evaluateAll((all) => all.map((o) => [...o.querySelectorAll('.chunk-meta span')].map((s) => s.textContent).join(' · ')));
  const other = pages.findIndex((meta) => !/\bPage 1\b/.test(meta));
  t.true(other > 0, `a chunk on another page than the first: ${pages.join(' | ')}`);
  const target = options.nth(other);
  await target.scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const before = (await target.boundingBox())!;
  await target.click();
  await page.getByRole('option', { selected: true }).filter({ has: page.locator(`text=${(await target.innerText()).split('\n')[0]}`) }).waitFor();
  await page.waitForFunction(() => {
    const img = document.querySelector('.chunk-preview img') as HTMLImageElement | null;
    return img?.complete === true && !/Page 1 of/.test(img.alt);
  });
  const after = (await target.boundingBox())!;
  t.true(Math.abs(after.y - before.y) <= 2, `the clicked chunk moved from y=${before.y} to y=${after.y}`);
  const weight = await target.locator('.chunk-text').evaluate((p) => getComputedStyle(p).fontWeight);
  t.is(weight, '400', 'the selected chunk reads like the others');
  t.not(await target.evaluate((o) => getComputedStyle(o).borderColor), await options.nth(0).evaluate((o) => getComputedStyle(o).borderColor), 'shown selected by its border');
  t.deepEqual(await c.accessibilityViolations(), []);
  await c.screenshot('document-chunks.selected');
  t.deepEqual(c.pageErrors, []);
});
