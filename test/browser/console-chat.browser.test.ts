import test from 'ava';
import { closeConsoleBrowser, consoleBrowserForTests, openConsole, type ConsoleSession } from '../helpers/console-browser.ts';
import { readKey, SAMPLE_PDF, sampleKnowledgeBaseWithPdf } from '../helpers/console-sample.ts';
import { startChatServer, LOOPBACK_PROVIDERS } from '../helpers/provider-servers.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const chromium = consoleBrowserForTests();
const serial = chromium ? test.serial : test.serial.skip;
let server: TestServer | undefined;

test.before(async () => {
  if (!chromium) return;
  server = await startServer({ KBQA_STORE_CHAT_CONTENT: 'on', ...LOOPBACK_PROVIDERS });
  await sampleKnowledgeBaseWithPdf(server);
});
test.after.always(async () => {
  await closeConsoleBrowser();
  await server?.close();
});

/** Opens the chat with the sample knowledge base chosen. */
async function openChat(c: ConsoleSession) {
  await c.page.goto(`${server!.url}/chat`);
  // The only knowledge base there is comes ticked; a test that made another ticks this one.
  await c.page.getByRole('checkbox', { name: 'Zephyr manuals' }).check({ force: true });
  await c.page.getByRole('checkbox', { name: 'Zephyr manuals', checked: true }).waitFor({ state: 'attached' });
}

async function ask(c: ConsoleSession, question: string) {
  await c.page.getByLabel('Message').fill(question);
  await c.page.getByRole('button', { name: 'Send' }).click();
  await c.page.locator('.message-assistant [aria-busy="false"]').last().waitFor();
}

serial('chat: a streamed answer, "Citation 1" shows the quote in its paragraph and on its page, feedback, conversations reopen', async (t) => {
  const c = await openConsole(t, chromium!, { server });
  await c.signIn();
  await openChat(c);
  await ask(c, 'What is the hub height?');
  const answer = c.page.locator('.message-assistant .answer-text').last();
  t.regex(await answer.innerText(), /110 metres/);
  // That pieces are shown as they arrive is the provider test's below (pieces 100 ms apart): the
  // offline model's few pieces may come in one network read, and then render once.

  // The panel lists what the answer cites, one entry per marker (issue 43 item 11: the API's citations are those, its context the rest).
  await c.page.getByRole('button', { name: 'Citation 1' }).first().click();
  const marked = await answer.getByRole('button', { name: /^Citation \d+$/ }).count();
  t.true(marked > 0);
  t.is(await c.page.locator('.citation-list li').count(), marked);
  const chosen = c.page.getByRole('region', { name: 'Citation 1' });
  t.regex(await chosen.locator('mark').innerText(), /110 metres/);
  await c.page.getByRole('img', { name: `Page 2 of ${SAMPLE_PDF}` }).waitFor();
  t.true(await chosen.locator('.page-image .box').count() > 0, 'the quoted lines are drawn on the page');
  await c.page.waitForFunction(() => (document.querySelector('.citation-panel img') as HTMLImageElement | null)?.complete === true);

  await c.page.getByRole('button', { name: 'Good answer' }).click();
  await c.page.getByText('Thanks, your rating was recorded.').waitFor();
  t.is(await c.page.getByRole('button', { name: 'Good answer' }).getAttribute('aria-pressed'), 'true');

  t.deepEqual(await c.accessibilityViolations(), []);
  await c.screenshot('chat');

  // The conversation is kept on the server: a new one starts empty, the old one reopens with its turns.
  await c.page.getByRole('button', { name: 'New conversation' }).click();
  await c.page.getByText(/Ask a question about your documents/).waitFor();
  await c.page.getByRole('button', { name: /What is the hub height\?/ }).click();
  await c.page.locator('.message-assistant .answer-text', { hasText: '110 metres' }).waitFor();
  await c.page.getByRole('button', { name: 'Citation 1' }).first().click();
  await c.page.getByRole('img', { name: `Page 2 of ${SAMPLE_PDF}` }).waitFor();
  // A stored answer keeps the chunk it cited: its passage and lines are read back from the document.
  await c.page.locator('.citation-paragraph', { hasText: 'The hub height is 110 metres.' }).waitFor();
  await c.page.locator('.citation-panel .page-image .box').first().waitFor();
  await c.page.getByRole('button', { name: 'Bad answer' }).click();
  await c.page.getByText('Thanks, your rating was recorded.').waitFor();
  t.deepEqual(c.cspViolations, []);
  t.deepEqual(c.pageErrors, []);
});

serial('a question the knowledge base does not cover is shown as not covered, with no citation', async (t) => {
  const c = await openConsole(t, chromium!, { server });
  await c.signIn();
  await openChat(c);
  await ask(c, 'Who won the FIFA world cup final?');
  const answer = c.page.locator('.message-assistant').last();
  t.regex(await answer.innerText(), /Not covered/);
  t.is(await answer.getByRole('button', { name: /^Citation/ }).count(), 0);
  t.deepEqual(c.pageErrors, []);
});

serial('in Simplified Chinese a question the knowledge base does not cover gets the console’s Chinese notice, not the server’s English sentence', async (t) => {
  const c = await openConsole(t, chromium!, { server });
  await c.signIn();
  await c.page.getByLabel('Language').selectOption('zh-CN');
  await openChat(c);
  await c.page.getByLabel('消息').fill('Who won the FIFA world cup final?');
  await c.page.getByRole('button', { name: '发送' }).click();
  await c.page.locator('.message-assistant [aria-busy="false"]').last().waitFor();
  const answer = c.page.locator('.message-assistant').last();
  t.is(await answer.locator('.answer-text').innerText(), '知识库没有涵盖这个问题：其中没有足够相关的段落可以回答它。');
  t.false((await answer.innerText()).includes('does not cover'), 'no English sentence beside it');
  t.deepEqual(c.pageErrors, []);
});

serial('a read key may chat and rate (both are read routes): the whole playground is there', async (t) => {
  const c = await openConsole(t, chromium!, { server });
  await c.signIn(await readKey(server!));
  await openChat(c);
  await ask(c, 'How long does the standard warranty last?');
  t.regex(await c.page.locator('.message-assistant .answer-text').last().innerText(), /five years/);
  await c.page.getByRole('button', { name: 'Citation 1' }).first().click();
  await c.page.getByRole('img', { name: `Page 2 of ${SAMPLE_PDF}` }).waitFor();
  await c.page.getByRole('button', { name: 'Good answer' }).click();
  await c.page.getByText('Thanks, your rating was recorded.').waitFor();
  t.deepEqual(c.pageErrors, []);
});

serial('in Simplified Chinese: the same journey, with the citation and the page named in Chinese', async (t) => {
  const c = await openConsole(t, chromium!, { server });
  await c.signIn();
  await c.page.getByLabel('Language').selectOption('zh-CN');
  await openChat(c);
  await c.page.getByLabel('消息').fill('What is the hub height?');
  await c.page.getByRole('button', { name: '发送' }).click();
  await c.page.getByRole('button', { name: '引用 1' }).first().click();
  await c.page.getByRole('img', { name: `${SAMPLE_PDF} 的第 2 页` }).waitFor();
  t.deepEqual(await c.accessibilityViolations(), []);
  await c.screenshot('chat.zh-CN');
  t.deepEqual(c.pageErrors, []);
});

serial('a workspace provider’s model streams piece by piece and Stop ends it; a provider refusing its key is said in words', async (t) => {
  const slow = await startChatServer({ pieces: Array.from({ length: 40 }, (_, i) => `piece${i} `), chunkDelayMs: 100 });
  const refusing = await startChatServer({ failFirst: 1000, failure: { status: 401, body: { error: { message: 'bad key' } } } });
  t.teardown(() => Promise.all([slow.close(), refusing.close()]));
  for (const [name, provider] of [['slow', slow], ['refusing', refusing]] as const) {
    const created = await server!.call('POST', '/v1/model-providers', { json: { name, base_url: provider.baseUrl, api_key: 'sk-loop-123456', models: [{ id: 'chat', type: 'chat' }] } });
    t.is(created.status, 201, JSON.stringify(created.body));
  }
  const c = await openConsole(t, chromium!, { server });
  await c.signIn();
  await c.page.goto(`${server!.url}/chat`);
  // A plain chat with the model: the knowledge base ticked by default goes.
  await c.page.getByRole('checkbox', { name: 'Zephyr manuals', checked: true }).waitFor({ state: 'attached' });
  await c.page.getByRole('checkbox', { name: 'Zephyr manuals' }).uncheck({ force: true });
  const pick = async (model: string) => {
    await c.page.locator('.chat-settings .react-aria-Select .react-aria-Button').click();
    await c.page.getByRole('option', { name: model }).click();
  };
  await pick('slow/chat');
  await c.page.getByLabel('Message').fill('Say something long.');
  await c.page.getByRole('button', { name: 'Send' }).click();
  await c.page.locator('.message-assistant .answer-text', { hasText: 'piece2' }).waitFor();
  await c.page.getByRole('button', { name: 'Stop' }).click();
  await c.page.getByRole('button', { name: 'Send' }).waitFor();
  const shown = await c.page.locator('.message-assistant .answer-text').last().innerText();
  t.false(shown.includes('piece39'), 'the answer stopped where it was');
  t.is(await c.page.getByRole('button', { name: 'Good answer' }).count(), 0, 'a stopped answer is not recorded, so not rated');
  await slow.untilDisconnects(1);

  await pick('refusing/chat');
  await c.page.getByLabel('Message').fill('Say hello.');
  await c.page.getByRole('button', { name: 'Send' }).click();
  t.regex(await c.page.getByRole('alert').innerText(), /provider|key|auth/i);
  t.deepEqual(c.pageErrors, []);
});

serial('the citation panel follows the newest answer, and its page opens full width in a dialog', async (t) => {
  const c = await openConsole(t, chromium!, { server });
  await c.signIn();
  await openChat(c);
  await ask(c, 'What is the hub height?');
  await c.page.getByRole('button', { name: 'Citation 1' }).first().click();
  await c.page.getByRole('region', { name: 'Citation 1' }).waitFor();
  const small = (await c.page.getByRole('img', { name: `Page 2 of ${SAMPLE_PDF}` }).boundingBox())!;

  // Zoom, from the keyboard: the page at the dialog's full width, named, and Escape gives focus back.
  const zoom = c.page.getByRole('button', { name: `Enlarge page 2 of ${SAMPLE_PDF}` });
  await zoom.focus();
  await c.page.keyboard.press('Enter');
  const dialog = c.page.getByRole('dialog', { name: `Page 2 of ${SAMPLE_PDF}` });
  const large = dialog.getByRole('img', { name: `Page 2 of ${SAMPLE_PDF}` });
  await large.waitFor();
  await c.page.waitForFunction(() => (document.querySelector('.page-zoom img') as HTMLImageElement | null)?.complete === true);
  const wide = (await large.boundingBox())!;
  t.log(`the page: ${Math.round(small.width)} px in the panel, ${Math.round(wide.width)} px enlarged`);
  t.true(wide.width > small.width * 1.8, `zoomed ${wide.width} px against ${small.width} px`);
  t.true(await dialog.locator('.page-image .box').count() > 0, 'the quoted lines are drawn on the large page too');
  t.deepEqual(await c.accessibilityViolations(), []);
  await c.screenshot('chat.zoom');
  await c.page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  t.true(await zoom.evaluate((button) => button === document.activeElement), 'focus is back on the zoom button');

  // A new answer: the previous answer's citation is closed, the panel lists the new answer's.
  await ask(c, 'How long does the standard warranty last?');
  await c.page.getByRole('region', { name: 'Citation 1' }).waitFor({ state: 'detached' });
  t.regex(await c.page.locator('.citation-list').innerText(), /five years/);
  t.notRegex(await c.page.locator('.citation-list').innerText(), /110 metres/);
  t.deepEqual(c.pageErrors, []);
});

serial('the playground ticks the only knowledge base there is, then the one last used', async (t) => {
  const c = await openConsole(t, chromium!, { server });
  await c.signIn();
  await c.page.goto(`${server!.url}/chat`);
  await c.page.getByRole('checkbox', { name: 'Zephyr manuals', checked: true }).waitFor({ state: 'attached' });
  await ask(c, 'What is the hub height?');
  t.regex(await c.page.locator('.message-assistant .answer-text').last().innerText(), /110 metres/, 'answered from the ticked knowledge base');

  const other = await server!.call('POST', '/v1/knowledge-bases', { json: { name: 'Other notes' } });
  t.teardown(() => server!.call('DELETE', `/v1/knowledge-bases/${other.body.id}`).then(() => undefined));
  await c.page.reload();
  await c.page.getByRole('checkbox', { name: 'Other notes', checked: false }).waitFor({ state: 'attached' });
  await c.page.getByRole('checkbox', { name: 'Zephyr manuals', checked: true }).waitFor({ state: 'attached' });
  await c.page.locator('label.react-aria-Checkbox', { hasText: 'Other notes' }).click();
  await c.page.locator('label.react-aria-Checkbox', { hasText: 'Zephyr manuals' }).click();
  await c.page.getByRole('checkbox', { name: 'Zephyr manuals', checked: false }).waitFor({ state: 'attached' });
  await c.page.reload();
  await c.page.getByRole('checkbox', { name: 'Other notes', checked: true }).waitFor({ state: 'attached' });
  t.false(await c.page.getByRole('checkbox', { name: 'Zephyr manuals' }).isChecked(), 'the last used choice, not the first');
  t.deepEqual(c.pageErrors, []);
});
