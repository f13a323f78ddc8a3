/**
 * Batches of a log handled at once, up to `limit` events in hand, whose positions are passed on
 * (`pass`, a checkpoint's save) in log order only: a batch's position is passed once it and every
 * batch before it were handled. What was in hand when the process stopped is so never passed, and
 * is read again on the next start, however many later batches had finished.
 */
export type InOrderWindow = {
  /**
   * Takes a batch of `size` events, read through `upTo`, that `work` handles; resolves once fewer
   * than `limit` events are in hand. Rejects with an earlier batch's failure: the window then
   * passes nothing more, and the reader stops as it would on a failed batch of its own.
   */
  add(size: number, upTo: bigint, work: () => Promise<void>): Promise<void>;
  /** Waits for every batch taken and for the positions passed after them. */
  drain(): Promise<void>;
};

export function createInOrderWindow(limit: number, pass: (upTo: bigint) => Promise<void>): InOrderWindow {
  const pending: { upTo: bigint; done: boolean }[] = [];
  const working = new Set<Promise<void>>();
  let held = 0;
  let failure: { error: unknown } | null = null;
  let passing = Promise.resolve();
  let room: (() => void) | null = null;

  const fail = (error: unknown) => void (failure ??= { error });
  const wake = () => {
    const resolve = room;
    room = null;
    resolve?.();
  };
  const advance = () => {
    let last: bigint | null = null;
    while (pending[0]?.done) last = pending.shift()!.upTo;
    if (last === null) return;
    const upTo = last;
    passing = passing.then(() => (failure ? undefined : pass(upTo))).catch(fail);
  };
  const check = () => {
    if (failure) throw failure.error;
  };

  return {
    async add(size, upTo, work) {
      check();
      const entry = { upTo, done: size === 0 };
      pending.push(entry);
      if (entry.done) return advance();
      held += size;
      const handled: Promise<void> = Promise.resolve()
        .then(work)
        .then(() => {
          entry.done = true;
          advance();
        }, fail)
        .finally(() => {
          held -= size;
          working.delete(handled);
          wake();
        });
      working.add(handled);
      while (held >= limit && !failure) await new Promise<void>((resolve) => (room = resolve));
      check();
    },
    async drain() {
      while (working.size > 0) await Promise.all(working);
      await passing;
      check();
    },
  };
}
