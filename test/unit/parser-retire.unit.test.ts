import test from 'ava';
import { RETIRE_ABOVE_MB, RETIRE_GROWTH_MB, withRetireCheck } from '../../src/parsing/worker-task.ts';

/** Runs a task in a process whose size goes from `before` to `after` MB; says whether it asked to go. */
async function asks(before: number, after: number, ocr = false) {
  const sizes = [before, after];
  let retired = false;
  const value = await withRetireCheck(async () => 'parsed', () => (retired = true), () => sizes.shift()!, () => ocr);
  return { value, retired };
}

test('a parse that grew its process past the bound asks the process to end; the result is the task’s', async (t) => {
  t.deepEqual(await asks(100, 100 + RETIRE_GROWTH_MB + 8), { value: 'parsed', retired: true });
  t.deepEqual(await asks(130, 140), { value: 'parsed', retired: false }, 'a small document');
  t.deepEqual(await asks(RETIRE_ABOVE_MB, RETIRE_ABOVE_MB + 1), { value: 'parsed', retired: true }, 'a process already big');
});

test('a process whose OCR engine started stays however big it is', async (t) => {
  t.false((await asks(100, 300, true)).retired);
});

test('a parse that throws is checked all the same', async (t) => {
  const sizes = [100, 100 + RETIRE_GROWTH_MB + 1];
  let retired = false;
  await t.throwsAsync(withRetireCheck(async () => Promise.reject(new Error('broken')), () => (retired = true), () => sizes.shift()!, () => false));
  t.true(retired);
});
