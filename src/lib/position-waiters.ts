type Waiter = { target: bigint; resolve: () => void; reject: (e: Error) => void; timer: NodeJS.Timeout };

/** Callers waiting for a position to be reached, each with its own deadline (GroupHandle.waitFor). */
export function createPositionWaiters(name: string, current: () => bigint) {
  let waiters: Waiter[] = [];
  return {
    waitFor(target: bigint, timeoutMs: number): Promise<void> {
      if (target <= current()) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w.timer !== timer);
          reject(new Error(`${name} did not reach position ${target} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.push({ target, resolve, reject, timer });
      });
    },
    /** Resolves everyone whose position has now been reached. */
    settle() {
      const position = current();
      waiters = waiters.filter((w) => {
        if (w.target > position) return true;
        clearTimeout(w.timer);
        w.resolve();
        return false;
      });
    },
    rejectAll(reason: string) {
      for (const w of waiters) {
        clearTimeout(w.timer);
        w.reject(new Error(`${name} ${reason}`));
      }
      waiters = [];
    },
  };
}
