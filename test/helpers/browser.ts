import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { type Browser, chromium } from 'playwright-core';

/**
 * The Chromium the browser tests drive: KBQA_CHROMIUM when set, else Debian's (/usr/bin/chromium,
 * which .ci/run installs), else a `chromium-browser` on the PATH. We use the system's browser rather
 * than Playwright's download, so `npm ci` fetches no browser and CI uses the one apt keeps patched.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.KBQA_CHROMIUM) return executable(env.KBQA_CHROMIUM) ? env.KBQA_CHROMIUM : undefined;
  const onPath = (env.PATH ?? '').split(delimiter).filter(Boolean).flatMap((dir) => [join(dir, 'chromium'), join(dir, 'chromium-browser')]);
  return ['/usr/bin/chromium', ...onPath].find(executable);
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * A launched Chromium for one test file, or undefined when there is none: the caller then skips its
 * tests, and the reason is printed once (a skipped browser test must not pass silently).
 */
export async function launchChromium(): Promise<Browser | undefined> {
  const executablePath = findChromium();
  if (!executablePath) {
    process.stderr.write('browser tests skipped: no Chromium (set KBQA_CHROMIUM, or install Debian\'s `chromium`)\n');
    return undefined;
  }
  // --no-sandbox: CI and containers run as root, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath, args: ['--no-sandbox'] });
}

/** `test` when a browser is there, `test.skip` when not: `browserTest(browser)('…', fn)`. */
export function browserTest<T extends { skip: unknown }>(test: T, browser: Browser | undefined): T | T['skip'] {
  return browser ? test : test.skip;
}

export type BrowserT = ExecutionContext;
