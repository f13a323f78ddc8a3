import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

/**
 * The Chromium the browser tests drive: KBQA_CHROMIUM when set, else Debian's (/usr/bin/chromium,
 * which .ci/run installs), else a `chromium` or `chromium-browser` on the PATH. The system's browser
 * rather than Playwright's download: `npm ci` fetches no browser, and apt keeps this one patched.
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
 * The file's browser, or why there is none: a test file calls this at load, registers its tests
 * with `test.serial.skip` when `chromium` is undefined, and the reason is printed (a skipped browser
 * test must not pass silently).
 */
export function chromiumForTests(): string | undefined {
  const path = findChromium();
  if (!path) {
    const wanted = process.env.KBQA_CHROMIUM ? `KBQA_CHROMIUM=${process.env.KBQA_CHROMIUM} is not executable` : 'no Chromium found (set KBQA_CHROMIUM, or install Debian\'s `chromium`)';
    process.stderr.write(`browser tests skipped: ${wanted}\n`);
  }
  return path;
}

/** Chromium through playwright-core. --no-sandbox: CI and containers run as root, where its sandbox refuses to start. */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, args: ['--no-sandbox'] });
}
