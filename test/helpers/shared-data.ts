import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TestFn } from 'ava';
import { repoRoot } from './process.ts';

/** ../shared/data beside the repository: present in CI, absent on a user's machine. */
export const sharedData = join(repoRoot, '..', 'shared', 'data');
export const hasSharedData = existsSync(join(sharedData, 'docs'));

export const sharedDoc = (...parts: string[]) => join(sharedData, 'docs', ...parts);

/**
 * Registers tests that need ../shared/data, or one skipped placeholder that says why, so a run
 * without the data prints the reason instead of passing silently.
 */
export function withSharedData(test: TestFn<any>, title: string, register: () => void) {
  if (hasSharedData) return register();
  test.skip(`${title} (skipped: ${sharedData} not found; these tests run where ../shared/data exists, as in CI)`, () => {});
  process.stdout.write(`skipping "${title}": ${sharedData} not found\n`);
}
