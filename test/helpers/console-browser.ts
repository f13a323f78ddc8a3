import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import type { Browser, Page } from 'playwright-core';
import { readConsoleBuild } from '../../src/http/console/build-output.ts';
import { ADMIN_KEY } from './admin-key.ts';
import { chromiumForTests, launchChromium } from './browser.ts';
import { startServer, type TestServer } from './server.ts';

/** Where the console tests keep a screenshot of each screen they visit: look at them (CI keeps the directory). */
export const SCREENSHOTS = join(process.cwd(), 'test-output', 'console');

/**
 * The Chromium the console tests drive, or undefined with the reason printed: no browser, or no
 * build of the console (`npm ci` builds it; a checkout installed with --ignore-scripts has none).
 */
export function consoleBrowserForTests(): string | undefined {
  const chromium = chromiumForTests();
  if (!chromium) return undefined;
  if (!readConsoleBuild()) {
    process.stderr.write('console browser tests skipped: the console is not built (run `npm run build:console`)\n');
    return undefined;
  }
  return chromium;
}

export type ConsoleSession = {
  page: Page;
  server: TestServer;
  /** Content-Security-Policy violations the page reported: a test ends by expecting none. */
  cspViolations: string[];
  /** Uncaught errors in the page. */
  pageErrors: string[];
  /** Signs in with the key through the sign-in screen (the admin key when none is given). */
  signIn(key?: string): Promise<void>;
  /** axe-core's serious and critical violations of WCAG 2.2 A/AA on the page as it is now. */
  accessibilityViolations(): Promise<string[]>;
  /** Keeps a full-page screenshot under test-output/console/<name>.png. */
  screenshot(name: string): Promise<void>;
};

let browser: Promise<Browser> | undefined;

/**
 * A fresh page of the console on a real server (the whole runtime in process, workers included, so
 * uploads parse and index), its browser shared by the file's tests. `server` reuses one; otherwise
 * a server of its own is started and closed with the test. `locale` picks the browser's language.
 */
export async function openConsole(t: ExecutionContext, chromium: string, options: { server?: TestServer; locale?: string } = {}): Promise<ConsoleSession> {
  browser ??= launchChromium(chromium);
  const server = options.server ?? (await startServer());
  const context = await (await browser).newContext({ locale: options.locale ?? 'en-US', viewport: { width: 1280, height: 860 } });
  t.teardown(async () => {
    await context.close();
    if (!options.server) await server.close();
  });
  const page = await context.newPage();
  const cspViolations: string[] = [];
  const pageErrors: string[] = [];
  await page.exposeFunction('__kbqaCspViolation', (line: string) => void cspViolations.push(line));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __kbqaCspViolation(line: string): void }).__kbqaCspViolation(`${e.violatedDirective}: ${e.blockedURI || (e.target as Element | null)?.outerHTML?.slice(0, 120) || ''}`);
    });
  });
  page.on('pageerror', (error) => void pageErrors.push(error.message));

  return {
    page,
    server,
    cspViolations,
    pageErrors,
    async signIn(key = ADMIN_KEY) {
      await page.goto(`${server.url}/`);
      await page.getByLabel('API key').fill(key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('navigation').getByRole('link', { name: 'Knowledge bases' }).waitFor();
      // The shell paints before the index route's redirect runs (an effect): wait for it, or a test
      // reading the address right after signing in races it on a busy host.
      await page.waitForURL((url) => url.pathname !== '/');
    },
    async accessibilityViolations() {
      await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
      return page.evaluate(async () => {
        type Result = { violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] };
        const axe = (window as unknown as { axe: { run(context: Document, options: unknown): Promise<Result> } }).axe;
        const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'] } });
        return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      });
    },
    async screenshot(name: string) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
    },
  };
}

/** Closes the shared browser: register with `test.after.always(closeConsoleBrowser)`. */
export async function closeConsoleBrowser() {
  if (browser) await (await browser).close();
  browser = undefined;
}
