import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { closeConsoleBrowser, consoleBrowserForTests, openConsole } from '../helpers/console-browser.ts';
import { settledDocument, uploadFiles } from '../helpers/documents.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { pdf } from '../unit/parsing-pdf-fixtures.ts';

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

/** Text of about `kb` kilobytes, different for each name (the same bytes twice would be one document). */
const sizedNote = (name: string, kb: number) => Buffer.from(`# ${name}\n\n${`The ${name} blade is checked monthly. `.repeat(Math.ceil((kb * 1024) / 40))}\n`);
const BROKEN_PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog garbage');
const KNOWN = 'The known note: the hub height is 110 metres.\n';

serial('the upload table: one word per row, bars at their value, a stable order, refusals kept, failures counted, duplicates said', async (t) => {
  const kbId = await knowledgeBase('Uploads');
  await readyDocument(kbId, 'known.md', KNOWN);
  const broken = await uploadFiles(server!, kbId, [{ name: 'broken.pdf', bytes: BROKEN_PDF, type: 'application/pdf' }]);
  t.is((await settledDocument(server!, kbId, broken.body.data[0].id)).status, 'failed');
  const c = await openConsole(t, chromium!, { server });
  await c.signIn();
  const { page } = c;
  const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

  // The list says how many of the documents failed.
  await page.goto(`${server!.url}/knowledge-bases`);
  t.regex(await row('Uploads').innerText(), /2 documents, 1 failed/);

  await page.getByRole('link', { name: 'Uploads' }).click();
  await row('known.md').locator('.status-ready').waitFor();
  // Every change of the table is looked at: the badge and the bar's words agree, the rows keep their order.
  await page.evaluate(() => {
    const seen = { orders: [] as string[][], disagreements: [] as string[], drawn: [] as string[] };
    (window as unknown as { __seen: typeof seen }).__seen = seen;
    new MutationObserver(() => {
      const rows = [...document.querySelectorAll('.document-row')];
      seen.orders.push(rows.map((r) => r.querySelector('[role="rowheader"]')!.textContent!));
      for (const r of rows) {
        const badge = r.querySelector('.status')!.textContent!;
        const words = r.querySelector('[role="progressbar"]')!.getAttribute('aria-valuetext')!;
        if (!words.startsWith(badge)) seen.disagreements.push(`${badge} / ${words}`);
        // Read as the change lands: a bar still growing toward its value is not drawn at it.
        const track = r.querySelector('.bar')!.getBoundingClientRect().width;
        const fill = r.querySelector('.fill')!.getBoundingClientRect().width;
        const value = Number(r.querySelector('[role="progressbar"]')!.getAttribute('aria-valuenow'));
        if (track > 0 && Math.abs(fill / track - value / 100) > 0.02) seen.drawn.push(`${words}: ${Math.round((100 * fill) / track)} % drawn`);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  // Sent slowly, so that "uploading" lasts: 160 KB/s up.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 160 * 1024 });
  const names = ['n1.md', 'n2.md', 'n3.md', 'n4.md', 'n5.md', 'n6.md'];
  await page.getByLabel('Upload documents').setInputFiles(names.map((name, i) => ({ name, mimeType: 'text/markdown', buffer: sizedNote(name, i === 0 ? 120 : 8) })));
  for (const name of names) await row(name).locator('.status-ready').waitFor({ timeout: 60_000 });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  const seen = await page.evaluate(() => (window as unknown as { __seen: { orders: string[][]; disagreements: string[]; drawn: string[] } }).__seen);
  t.deepEqual([...new Set(seen.disagreements)], [], 'the badge says what the bar says');
  t.deepEqual(seen.drawn.slice(0, 5), [], 'each bar drawn at its value as it changes');
  const reordered = seen.orders.map((order) => order.filter((n) => names.includes(n))).filter((order) => order.join() !== names.filter((n) => order.includes(n)).join());
  t.deepEqual(reordered.slice(0, 3), [], 'rows stay in the order the files were dropped');

  // Each bar is drawn at its value, at once (a bar that grew from 0 as its row was made anew read "ready 100 %" half drawn).
  const bars = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('.document-row [role="progressbar"]')].flatMap((bar) => {
        const track = bar.querySelector('.bar')!.getBoundingClientRect().width;
        const fill = bar.querySelector('.fill')!.getBoundingClientRect().width;
        const value = Number(bar.getAttribute('aria-valuenow'));
        return Math.abs(fill / track - value / 100) > 0.02 ? [`${bar.getAttribute('aria-valuetext')}: ${Math.round((100 * fill) / track)} % drawn`] : [];
      }),
    );
  await page.waitForFunction(() => !document.querySelector('.document-row [role="progressbar"][aria-valuenow]:not([aria-valuenow="100"])'));
  t.deepEqual(await bars(), []);

  // The same bytes again, under another name: said, by the name it has here.
  await page.getByLabel('Upload documents').setInputFiles([{ name: 'copy.md', mimeType: 'text/markdown', buffer: Buffer.from(KNOWN) }]);
  await page.getByRole('status').getByText('copy.md is already here as known.md (the same bytes): nothing was added.').waitFor();
  t.is(await row('copy.md').count(), 0);

  // A refused upload keeps its row and reason, a reload included.
  await page.getByLabel('Upload documents').setInputFiles([{ name: 'tool.bin', mimeType: 'application/octet-stream', buffer: Buffer.from([0, 1, 2, 3, 0, 0, 255, 254, 0, 7, 0, 0]) }]);
  await row('tool.bin').locator('.status-failed').waitFor();
  await page.reload();
  await row('known.md').waitFor();
  t.regex(await row('tool.bin').locator('.failure').innerText(), /^Failed at upload: This type of file is not supported; upload a supported format instead\.\nThe type of tool\.bin is not supported/);
  t.deepEqual(await c.accessibilityViolations(), []);
  // axe's experimental rule too (injected by the call above): a button's visible words are in its name (WCAG 2.5.3).
  const mismatched = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: unknown): Promise<{ violations: { nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'rule', values: ['label-content-name-mismatch'] } });
    return result.violations.flatMap((v) => v.nodes.map((n) => n.target.join(' ')));
  });
  t.deepEqual(mismatched, [], 'label-content-name-mismatch');
  t.true(await page.getByRole('button', { name: 'Upload again: known.md' }).isVisible());
  await c.screenshot('documents.uploads');
  await page.getByRole('button', { name: 'Delete tool.bin' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await row('tool.bin').waitFor({ state: 'detached' });
  await page.reload();
  await row('known.md').waitFor();
  t.is(await row('tool.bin').count(), 0, 'deleted from the list, it stays deleted');
  t.deepEqual(c.pageErrors, []);
});

serial('in Simplified Chinese a failed document says why in Chinese, the file’s particulars under it', async (t) => {
  const kbId = await knowledgeBase('Failures');
  const locked = await pdf((doc) => doc.text('Secret text', 72, 72), { userPassword: 'open sesame', ownerPassword: 'owner' });
  const up = await uploadFiles(server!, kbId, [{ name: 'locked.pdf', bytes: locked }]);
  t.like((await settledDocument(server!, kbId, up.body.data[0].id)).error, { code: 'encrypted' });
  const c = await openConsole(t, chromium!, { server });
  await c.signIn();
  const { page } = c;
  await page.getByLabel('Language').selectOption('zh-CN');
  await page.goto(`${server!.url}/knowledge-bases/${kbId}`);
  const failure = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'locked.pdf', exact: true }) }).locator('.failure');
  await failure.waitFor();
  t.is(await failure.innerText(), '在解析阶段失败：文件受密码保护；请去除密码后重新上传。\nThe PDF is password-protected.');
  t.is(await failure.locator('[lang="en"]').innerText(), 'The PDF is password-protected.', 'the English particulars are marked English');
  t.deepEqual(await c.accessibilityViolations(), []);
  await c.screenshot('documents.failed.zh-CN');
  t.deepEqual(c.pageErrors, []);
});
