import { readFile } from 'node:fs/promises';
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

const V1 = '# Blade service\n\nThe Zephyr blade is checked every 6 months by the rotor crew.\n\n# Tower\n\nThe tower is painted white.\n';
const V3 = '# Blade service\n\nThe Zephyr blade is checked every 3 months by the rotor crew.\n\n# Tower\n\nThe tower is painted grey.\n';
const V2 = '# Blade service\n\nThe Zephyr blade is checked every 3 months by the rotor crew.\n\n# Tower\n\nThe tower is painted white.\n';

/** Words no other knowledge base of this server holds, so the answer cites this document. */
const ROTOR_V1 = '# Rotor bolts\n\nThe rotor bolt torque is 300 Nm on the Quasar hub.\n';
const ROTOR_V2 = '# Rotor bolts\n\nThe rotor bolt torque is 320 Nm on the Quasar hub.\n';

async function knowledgeBase(name: string): Promise<string> {
  const { body } = await server!.call('POST', '/v1/knowledge-bases', { json: { name } });
  return body.id as string;
}

type Version = { version: number; status: string; current: boolean };
async function versions(kbId: string, documentId: string): Promise<Version[]> {
  const { body } = await server!.call('GET', `/v1/knowledge-bases/${kbId}/documents/${documentId}/versions`);
  return body.data as Version[];
}

/** Until version n answers retrieval (it is ready and current). */
async function untilCurrent(kbId: string, documentId: string, n: number) {
  for (const end = Date.now() + 60_000; Date.now() < end; await new Promise((r) => setTimeout(r, 250))) {
    const all = await versions(kbId, documentId);
    if (all.find((v) => v.version === n)?.current) return;
    if (all.find((v) => v.version === n)?.status === 'failed') throw new Error(`version ${n} failed`);
  }
  throw new Error(`version ${n} never became current`);
}

/** Why a route is not on this server (404 route_not_found, or 405), or null when it is (area B's diff and restore). */
async function routeMissing(method: 'GET' | 'POST', path: string): Promise<string | null> {
  const { status, body } = await server!.call(method, path);
  return status === 405 || body?.error?.code === 'route_not_found' ? `${method} ${path} answered ${status} ${String(body?.error?.code)}` : null;
}

serial('versions: the same name uploaded again is version 2, Upload again version 3, the timeline, download version 1, compare 2 against 1, restore 1', async (t) => {
  const kbId = await knowledgeBase('Versions');
  const c = await openConsole(t, chromium!, { server });
  await c.signIn();
  const { page } = c;
  await page.goto(`${server!.url}/knowledge-bases/${kbId}`);
  await page.getByLabel('Upload documents').setInputFiles([{ name: 'blade.md', mimeType: 'text/markdown', buffer: Buffer.from(V1) }]);
  const row = page.locator('.document-row', { hasText: 'blade.md' });
  await row.locator('.status-ready').waitFor({ timeout: 60_000 });

  // The same name again: not a copy, the document's version 2, and the screen says so.
  await page.getByLabel('Upload documents').setInputFiles([{ name: 'blade.md', mimeType: 'text/markdown', buffer: Buffer.from(V2) }]);
  await page.getByRole('status', { name: 'New versions' }).getByText('blade.md is now version 2 of the document of that name').waitFor();
  const { body: list } = await server!.call('GET', `/v1/knowledge-bases/${kbId}/documents?limit=100`);
  t.is(list.data.length, 1, 'one document, not two');
  const documentId = list.data[0].id as string;
  await untilCurrent(kbId, documentId, 2);
  t.is(await page.locator('.document-row').count(), 1);

  // Upload again after a reload (the file chosen anew): version 3 of the same document, said so.
  await page.reload();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Upload again: blade.md' }).click()]);
  await chooser.setFiles([{ name: 'blade-draft.md', mimeType: 'text/markdown', buffer: Buffer.from(V3) }]);
  await page.getByRole('status', { name: 'New versions' }).getByText('blade-draft.md is now version 3 of the document of that name').waitFor();
  await untilCurrent(kbId, documentId, 3);
  t.is((await server!.call('GET', `/v1/knowledge-bases/${kbId}/documents?limit=100`)).body.data.length, 1, 'still one document');

  await page.goto(`${server!.url}/knowledge-bases/${kbId}/documents/${documentId}`);
  await page.getByRole('tab', { name: 'Versions' }).click();
  const timeline = page.getByRole('list', { name: 'Versions' });
  const v1 = timeline.getByRole('listitem', { name: 'Version 1' });
  const v2 = timeline.getByRole('listitem', { name: 'Version 2' });
  await timeline.getByRole('listitem', { name: 'Version 3' }).getByText('current').waitFor();
  t.true(await v1.getByText('superseded').isVisible());
  t.true(await v2.getByText('superseded').isVisible());
  t.regex(await v1.innerText(), /replaced on/);
  t.regex(await v2.innerText(), /blade\.md · by key_\S+ · \d+ B · \d+ pages? · \d+ chunks?/);
  t.true(await page.getByRole('button', { name: 'Upload new version', exact: true }).isVisible());
  t.deepEqual(await c.accessibilityViolations(), []);
  await c.screenshot('document-versions');

  // Download version 1: its own bytes, under its name.
  const [download] = await Promise.all([page.waitForEvent('download'), v1.getByRole('button', { name: 'Download', exact: true }).click()]);
  t.is(download.suggestedFilename(), 'blade.md');
  t.is(await readFile((await download.path())!, 'utf8'), V1);

  // Compare (area B's diff route): skipped with the reason until that route exists.
  const noDiff = await routeMissing('GET', `/v1/knowledge-bases/${kbId}/documents/${documentId}/versions/2/diff?against=1`);
  if (noDiff) t.log(`compare not tested: ${noDiff}`);
  else {
    await v2.getByRole('button', { name: 'Compare', exact: true }).click();
    const diff = page.getByRole('region', { name: 'Version 2 against version 1' });
    await diff.getByRole('status').waitFor();
    t.regex(await diff.getByRole('status').innerText(), /1 changed/);
    t.is(await diff.locator('.diff-changed ins').first().innerText(), '3');
    t.is(await diff.locator('.diff-changed del').first().innerText(), '6');
    t.deepEqual(await c.accessibilityViolations(), []);
    await c.screenshot('document-versions-compare');
  }

  // Restore (area B's route): version 1's bytes become version 3.
  const noRestore = await routeMissing('POST', `/v1/knowledge-bases/${kbId}/documents/${documentId}/versions/99/restore`);
  if (noRestore) t.log(`restore not tested: ${noRestore}`);
  else {
    await v1.getByRole('button', { name: 'Restore', exact: true }).click();
    await page.getByRole('status').getByText('Version 1 restored as version 4.').waitFor();
    await timeline.getByRole('listitem', { name: 'Version 4' }).waitFor();
    await untilCurrent(kbId, documentId, 4);
  }
  t.deepEqual(c.pageErrors, []);
});

serial('versions: a citation names its version; once replaced it says so and links to the current text; "as of" goes with the request', async (t) => {
  const kbId = await knowledgeBase('Cited versions');
  const up = await uploadFiles(server!, kbId, [{ name: 'rotor.md', bytes: ROTOR_V1 }]);
  const documentId = up.body.data[0].id as string;
  t.is((await settledDocument(server!, kbId, documentId, 60_000)).status, 'ready');
  const c = await openConsole(t, chromium!, { server });
  await c.signIn();
  const { page } = c;
  await page.goto(`${server!.url}/chat`);
  await page.getByRole('checkbox', { name: 'Cited versions' }).check({ force: true });
  await page.getByRole('checkbox', { name: 'Cited versions', checked: true }).waitFor({ state: 'attached' });
  await page.getByLabel('Message').fill('What is the rotor bolt torque?');
  await page.getByRole('button', { name: 'Send' }).click();
  await page.locator('.message-assistant [aria-busy="false"]').last().waitFor();
  const entry = page.locator('.citation-list li').first();
  await entry.waitFor();
  t.regex(await entry.innerText(), /version 1/);

  // Version 2 replaces it: the answer's citation is now of an old version.
  await uploadFiles(server!, kbId, [{ name: 'rotor.md', bytes: ROTOR_V2 }]);
  await untilCurrent(kbId, documentId, 2);
  await page.getByRole('button', { name: 'Citation 1' }).first().click();
  const chosen = page.getByRole('region', { name: 'Citation 1' });
  await chosen.getByText(/From version 1 of 2, replaced on .+\./).waitFor();
  t.is(await chosen.getByRole('link', { name: 'Read the current text' }).getAttribute('href'), `/knowledge-bases/${kbId}/documents/${documentId}`);
  t.deepEqual(await c.accessibilityViolations(), []);

  // As of (area A answers it server-side): the request carries it, as RFC 3339.
  await page.getByLabel('As of').fill('2026-01-15T09:30:00');
  const [request] = await Promise.all([
    page.waitForRequest((r) => r.url().endsWith('/v1/chat/completions') && r.method() === 'POST'),
    (async () => {
      await page.getByLabel('Message').fill('What is the rotor bolt torque?');
      await page.getByRole('button', { name: 'Send' }).click();
    })(),
  ]);
  t.is(request.postDataJSON().as_of, new Date('2026-01-15T09:30:00').toISOString());
  await page.locator('.message-assistant [aria-busy="false"]').last().waitFor().catch(() => undefined);
  t.deepEqual(c.pageErrors, []);
});

serial('versions in Chinese: the tab, the buttons and the timeline say it in Chinese', async (t) => {
  const kbId = await knowledgeBase('中文版本');
  const up = await uploadFiles(server!, kbId, [{ name: 'blade.md', bytes: V1 }]);
  const documentId = up.body.data[0].id as string;
  await settledDocument(server!, kbId, documentId, 60_000);
  await uploadFiles(server!, kbId, [{ name: 'blade.md', bytes: V2 }]);
  await untilCurrent(kbId, documentId, 2);
  const c = await openConsole(t, chromium!, { server });
  await c.signIn();
  const { page } = c;
  await page.goto(`${server!.url}/knowledge-bases/${kbId}/documents/${documentId}`);
  await page.getByLabel('Language').selectOption('zh-CN');
  await page.getByRole('tab', { name: '版本' }).click();
  const timeline = page.getByRole('list', { name: '版本' });
  const v1 = timeline.getByRole('listitem', { name: '版本 1' });
  await v1.getByText('已被取代').waitFor();
  t.true(await timeline.getByRole('listitem', { name: '版本 2' }).getByText('当前', { exact: true }).isVisible());
  t.true(await page.getByRole('button', { name: '上传新版本', exact: true }).isVisible());
  for (const name of ['下载', '比较']) t.true(await timeline.getByRole('listitem', { name: '版本 2' }).getByRole('button', { name, exact: true }).isVisible(), name);
  t.true(await v1.getByRole('button', { name: '恢复', exact: true }).isVisible());
  await page.goto(`${server!.url}/chat`);
  // The chat screen loads lazily: wait for it to be drawn, as a person would, before asking what it shows.
  await page.getByLabel('截至').waitFor();
  t.true(await page.getByLabel('截至').isVisible());
  t.deepEqual(await c.accessibilityViolations(), []);
  t.deepEqual(c.pageErrors, []);
});
