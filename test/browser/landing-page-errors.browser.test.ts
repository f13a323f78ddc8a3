// The landing page's refusals and restored state, in Chromium against the loopback server: the
// page's mapping of the contract's errors (401, 429, network) and history (docs/landing-page.md).
import { citation, demoAgent as demo, landingBrowserSuite } from '../helpers/landing-browser-suite.ts';
import { landingPage } from '../helpers/landing-page-driver.ts';

const suite = landingBrowserSuite();
const { test, open } = suite;

test('an access code is asked for, a wrong one said so, the right one lets the question through', async (t) => {
  const agent = demo('locked', { accessCode: 'letmein' });
  agent.view.access_code_required = true;
  const { driver, page, close } = await open(suite.server.agent(agent));
  t.teardown(close);
  t.true(await driver.accessCodeBox().isVisible());
  await driver.giveAccessCode('wrong');
  await driver.messageBox().fill('How much leave?');
  await driver.sendButton().click();
  await page.getByRole('status').filter({ hasText: 'not right' }).waitFor();
  t.true(await driver.accessCodeBox().isVisible());
  await driver.giveAccessCode('letmein');
  const answer = await driver.ask('How much leave?');
  t.regex((await answer.textContent())!, /five days/);
  t.is(suite.server.recorded.chats.at(-1)!.body.access_code, 'letmein');
});

test('a 401 access_code_required from the chat shows the access-code form', async (t) => {
  const { driver, close } = await open(suite.server.agent(demo('late-lock', { refuseNext: { status: 401, code: 'access_code_required' } })));
  t.teardown(close);
  t.false(await driver.accessCodeBox().isVisible());
  await driver.ask('hi');
  t.true(await driver.accessCodeBox().isVisible());
});

test('a 429 says when to try again; a lost connection says so; both politely, in the live region', async (t) => {
  const agent = demo('busy', { refuseNext: { status: 429, code: 'rate_limited', retryAfter: 7 } });
  const { driver, page, close } = await open(suite.server.agent(agent));
  t.teardown(close);
  await driver.ask('hi');
  t.is(await driver.status().textContent(), 'Too many messages. Please try again in 7 seconds.');
  t.is(await driver.status().getAttribute('aria-live'), 'polite');
  t.is(await driver.messageBox().inputValue(), 'hi', 'the unanswered question is back in the box');
  t.is(await driver.log().locator('.msg.agent').count(), 1, 'only the opening message: no empty answer');
  await page.route('**/chat', (route) => route.abort('internetdisconnected'));
  await driver.ask('again');
  t.is(await driver.status().textContent(), 'Could not reach the server. Check your connection and try again.');
});

test('a failure mid-stream keeps what came, says so, and offers no thumbs for a broken answer', async (t) => {
  const agent = demo('broken', { answers: { default: { chunks: ['Up to five '], failWith: { status: 500, code: 'internal_error' } } } });
  const { driver, close } = await open(suite.server.agent(agent));
  t.teardown(close);
  const answer = await driver.ask('How much leave?');
  t.is(await answer.locator('p').textContent(), 'Up to five ');
  t.is(await driver.status().textContent(), 'Something went wrong. Please try again.');
  t.is(await answer.getByRole('button', { name: 'Helpful', exact: true }).count(), 0);
});

test('the conversation so far is restored from the history, with its citations and thumbs', async (t) => {
  const agent = demo('back', {
    history: [
      { id: 'msg_q', role: 'user', content: 'Earlier question' },
      { id: 'msg_a', role: 'assistant', content: 'Earlier answer [1]', citations: [citation('back')] },
    ],
  });
  const { driver, close } = await open(suite.server.agent(agent));
  t.teardown(close);
  await driver.lastAnswer().getByRole('button', { name: 'Citation 1' }).waitFor();
  t.true((await driver.log().textContent())!.includes('Earlier question'));
  await driver.rate('Not helpful');
  t.deepEqual(suite.server.recorded.feedback.at(-1)!.body, { message_id: 'msg_a', rating: 'down' });
  await driver.ask('Next question');
  t.is((suite.server.recorded.chats.at(-1)!.body.messages as unknown[]).length, 3);
});

test('the page runs under its CSP with no violation, and its assets are gzipped and immutable', async (t) => {
  const url = suite.server.agent(demo('csp'));
  const context = await suite.browser.newContext();
  t.teardown(() => context.close());
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  page.on('pageerror', (error) => problems.push(error.message));
  const assets: { url: string; encoding?: string; cache?: string }[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/assets/landing/')) assets.push({ url: response.url(), encoding: response.headers()['content-encoding'], cache: response.headers()['cache-control'] });
  });
  await landingPage(page).goto(url);
  await landingPage(page).ask('hi');
  t.deepEqual(problems, []);
  t.is(assets.length, 2);
  for (const asset of assets) t.like(asset, { encoding: 'gzip', cache: 'public, max-age=31536000, immutable' });
});
