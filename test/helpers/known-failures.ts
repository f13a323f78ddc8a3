import type { ExecutionContext, TestFn } from 'ava';
import { inspect } from 'node:util';

/**
 * Why a case fails on a server that is not the one the adapter was written for, and how that
 * shows; or that it never ends there, so it is skipped: its work would go on after a timeout and
 * keep the test process from exiting.
 */
export type KnownFailure = { reason: string; symptom: RegExp } | { reason: string; hangs: true };

/** Long enough for a case that waits out its own 5 s deadlines on a busy machine. */
const KNOWN_FAILURE_TIMEOUT_MS = 20_000;

/**
 * A `test` to hand to the contract suites when they run against a server known to lack some of
 * what the adapters use. Cases that `known` lists run inside `t.try` and pass only when they fail
 * with their symptom: one that starts passing fails and says to take it off the list, and one
 * that fails another way fails with what happened; one that hangs is skipped, its reason in its
 * title. Other cases run as they are. `unlisted()` names the entries no registered case matched,
 * so a renamed case cannot leave a stale one.
 */
export function expectingKnownFailures(test: TestFn, server: string, known: ReadonlyMap<string, KnownFailure>) {
  const registered = new Set<string>();
  const expectFailure = (failure: { reason: string; symptom: RegExp }, implementation: Function) => async (t: ExecutionContext) => {
    const attempt = await t.try(async (tt) => {
      tt.timeout(KNOWN_FAILURE_TIMEOUT_MS);
      await Reflect.apply(implementation, undefined, [tt]);
    });
    const { passed } = attempt;
    const what = attempt.errors.map((error) => inspect(error, { depth: 6 })).join('\n');
    attempt.discard();
    if (passed) return t.fail(`passes on ${server} now: take it off the known failures (listed because: ${failure.reason})`);
    if (failure.symptom.test(what)) return t.pass();
    t.log(what);
    t.fail(`fails on ${server}, but not as listed (${failure.symptom}: ${failure.reason})`);
  };
  const wrapped = new Proxy(test, {
    // The suites register each case as test(title, implementation); every other use passes through.
    apply(target, thisArg, args: unknown[]) {
      const [title, implementation] = args;
      const failure = typeof title === 'string' ? known.get(title) : undefined;
      if (typeof title !== 'string' || !failure || typeof implementation !== 'function') return Reflect.apply(target, thisArg, args);
      registered.add(title);
      if ('hangs' in failure) return target.skip(`${title} (skipped on ${server}, where it never ends: ${failure.reason})`, () => {});
      return target(`${title} (known to fail on ${server}: ${failure.reason})`, expectFailure(failure, implementation));
    },
  });
  return { test: wrapped, unlisted: () => [...known.keys()].filter((title) => !registered.has(title)) };
}
