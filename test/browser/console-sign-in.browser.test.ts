import test from 'ava';
import { closeConsoleBrowser, consoleBrowserForTests, openConsole } from '../helpers/console-browser.ts';

const chromium = consoleBrowserForTests();
const serial = chromium ? test.serial : test.serial.skip;
test.after.always(closeConsoleBrowser);

serial('the sign-in screen: a wrong key is refused in words, the right one opens the console, sign-out ends it', async (t) => {
  const c = await openConsole(t, chromium!);
  await c.page.goto(`${c.server.url}/knowledge-bases`);
  const field = c.page.getByLabel('API key');
  await field.waitFor();
  t.deepEqual(await c.accessibilityViolations(), []);
  await c.screenshot('sign-in');

  await field.fill('kbqa-not-a-key');
  await c.page.getByRole('button', { name: 'Sign in' }).click();
  await c.page.getByRole('alert').waitFor();
  t.regex(await c.page.getByRole('alert').innerText(), /key/i);

  await c.signIn();
  t.is(new URL(c.page.url()).pathname, '/knowledge-bases', 'back where the visit began');
  // The key is in an HttpOnly cookie: no script of the page can read it, and nothing is kept in storage.
  t.is(await c.page.evaluate(() => document.cookie), '');
  t.is(await c.page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })).then((s) => s.includes('kbqa-')), false);

  await c.page.getByRole('button', { name: 'Sign out' }).click();
  await c.page.getByLabel('API key').waitFor();
  await c.page.goto(`${c.server.url}/models`);
  await c.page.getByLabel('API key').waitFor();
  t.deepEqual(c.cspViolations, []);
  t.deepEqual(c.pageErrors, []);
});

serial('a browser that prefers Chinese gets the console in Simplified Chinese, and the switch changes it back', async (t) => {
  const c = await openConsole(t, chromium!, { locale: 'zh-CN' });
  await c.page.goto(`${c.server.url}/`);
  await c.page.getByLabel('API 密钥').waitFor();
  t.is(await c.page.evaluate(() => document.documentElement.lang), 'zh-CN');
  await c.screenshot('sign-in.zh-CN');
  await c.page.getByLabel('语言').selectOption('en');
  await c.page.getByLabel('API key').waitFor();
  t.is(await c.page.evaluate(() => document.documentElement.lang), 'en');
});
