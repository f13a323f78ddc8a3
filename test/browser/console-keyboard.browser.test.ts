import test from 'ava';
import type { Page } from 'playwright-core';
import { ADMIN_KEY } from '../helpers/admin-key.ts';
import { closeConsoleBrowser, consoleBrowserForTests, openConsole } from '../helpers/console-browser.ts';

const chromium = consoleBrowserForTests();
const serial = chromium ? test.serial : test.serial.skip;
test.after.always(closeConsoleBrowser);

/** The navigation's links, in order, with the paths they open (the names are the console's contract). */
const NAV = [
  ['Knowledge bases', '/knowledge-bases'],
  ['Chat', '/chat'],
  ['Workflows', '/workflows'],
  ['Agents', '/agents'],
  ['Models', '/models'],
  ['API keys', '/api-keys'],
] as const;

type Focused = { name: string; id: string; tag: string; focusVisible: boolean; outline: string; inViewport: boolean };

/** The element that has the focus, and whether a sighted keyboard user can see where it is. */
function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { name: '', id: '', tag: 'body', focusVisible: false, outline: 'none', inViewport: false };
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    return {
      name: (el.innerText || el.getAttribute('aria-label') || '').trim(),
      id: el.id,
      tag: el.tagName.toLowerCase(),
      focusVisible: el.matches(':focus-visible'),
      outline: style.outlineStyle === 'none' || parseFloat(style.outlineWidth) === 0 ? 'none' : `${style.outlineWidth} ${style.outlineStyle}`,
      inViewport: box.width > 0 && box.height > 0 && box.left >= 0 && box.top >= 0 && box.right <= innerWidth && box.bottom <= innerHeight,
    };
  });
}

/**
 * Presses Tab until the focus reaches the element named `name`. A screen that takes the focus when
 * it opens (a search field) is passed through: after the page's last stop Chromium comes back to
 * the first, the skip link, so `most` is generous rather than exact.
 */
async function tabTo(page: Page, name: string, most = 200): Promise<Focused> {
  for (let i = 0; i < most; i++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    if (now.name === name) return now;
  }
  throw new Error(`Tab never reached "${name}"`);
}

serial('keyboard only: sign in, skip to the content, open every screen from the navigation, the focus always visible', async (t) => {
  const c = await openConsole(t, chromium!);
  const { page } = c;
  await page.goto(`${c.server.url}/`);
  await page.getByLabel('API key').waitFor();
  t.is((await focused(page)).tag, 'input', 'the key field has the focus when the sign-in screen opens');
  await page.keyboard.type(ADMIN_KEY);
  const signIn = await tabTo(page, 'Sign in', 10);
  t.like(signIn, { tag: 'button', focusVisible: true, inViewport: true });
  t.not(signIn.outline, 'none');
  await page.keyboard.press('Enter');
  await page.getByRole('navigation').getByRole('link', { name: 'Knowledge bases' }).waitFor();

  // The first stop of a signed-in page is the skip link: hidden until focused, then on screen and outlined.
  const fresh = () => page.goto(`${c.server.url}/knowledge-bases`).then(() => page.getByRole('navigation').waitFor());
  await fresh();
  await page.keyboard.press('Tab');
  const skip = await focused(page);
  t.like(skip, { name: 'Skip to content', tag: 'a', focusVisible: true, inViewport: true });
  t.not(skip.outline, 'none');
  await page.keyboard.press('Enter');
  t.like(await focused(page), { id: 'content', tag: 'main' }, 'the skip link moves the focus to the screen, past the header');

  // From the top again: the links come after the skip link, and Enter on one keeps the focus there for the next Tab.
  await fresh();
  for (const [name, path] of NAV) {
    const link = await tabTo(page, name);
    t.like(link, { tag: 'a', focusVisible: true, inViewport: true }, `${name}: focus visible`);
    t.not(link.outline, 'none', `${name}: outlined`);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === path);
    await page.getByRole('navigation').getByRole('link', { name, exact: true }).and(page.locator('[aria-current="page"]')).waitFor();
    t.is(await page.getByRole('main').count(), 1, `${name}: the screen is shown`);
  }

  t.deepEqual(c.cspViolations, []);
  t.deepEqual(c.pageErrors, []);
});
