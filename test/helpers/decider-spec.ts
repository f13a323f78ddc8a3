import type { ExecutionContext } from 'ava';
import type { Command, Decider, DomainEvent } from '../../src/domain/shared/decider.ts';
import { DomainError } from '../../src/domain/shared/errors.ts';

/** given(past events).when(command).then(new events) — the decider alone, no I/O. */
export function deciderSpec<S, C extends Command, E extends DomainEvent>(decider: Decider<S, C, E>) {
  return (t: ExecutionContext) => ({
    given: (...past: E[]) => ({
      when: (command: C) => {
        const state = past.reduce(decider.evolve, decider.initialState());
        const run = () => decider.decide(command, state);
        return {
          then: (expected: E[]) => t.deepEqual(run(), expected),
          thenThrows: (kind: DomainError['kind'], code: string, param?: string) => {
            const error = t.throws(run, { instanceOf: DomainError });
            t.is(error?.kind, kind);
            t.is(error?.code, code);
            if (param !== undefined) t.is(error?.param, param);
          },
        };
      },
    }),
  });
}

export const at = (now: string) => ({ now });
