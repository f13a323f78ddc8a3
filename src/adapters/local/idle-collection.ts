import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export type Gc = (options?: { type: 'minor' | 'major' }) => void;

const ROUNDS = 4;
const ROUND_GAP_MS = 3_000;

let collect: Gc | undefined;
/** V8's collector as a function, without starting Node with --expose-gc (which would show it to every module). */
function collector(): Gc {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as Gc;
  }
  return collect;
}

/**
 * A few rounds of a minor and a major collection, a few seconds apart. V8 judges allocation slow
 * from its recent collections, a burst's included: it shrinks only at the third round or so
 * (measured), so a few rounds, then nothing more.
 */
function collectionRounds(gc: () => Gc) {
  let timer: NodeJS.Timeout | undefined;
  let rounds = 0;
  const run = () => {
    const collect = gc();
    collect({ type: 'minor' });
    collect({ type: 'major' });
    rounds += 1;
    timer = rounds < ROUNDS ? setTimeout(run, ROUND_GAP_MS).unref() : undefined;
  };
  return {
    after(ms: number) {
      rounds = 0;
      clearTimeout(timer);
      timer = setTimeout(run, ms).unref();
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

/**
 * Gives memory back once the server has been quiet for `quietMs`. V8 shrinks its young generation
 * (the server's semi-spaces grow to 64 MB each under load: young-generation.ts) and returns freed
 * heap pages only at a collection that finds allocation slow, and an idle process allocates
 * nothing, so none comes: a server that served a burst of searches kept +190 MB resident for
 * good (docs/benchmarks.md, issue 36). A few rounds of a minor and a major collection after the quiet
 * time let it shrink (128 MB of semi-spaces to 1 MB, measured). `touch()` on every request restarts the wait.
 *
 * `afterStart(ms)`: the same rounds once, `ms` after start-up, whatever requests come. Start-up
 * (module loading, migrations, the landing page's bundle) grows the young generation to its 64 MB
 * too, and readiness probes are requests: waiting for 30 quiet seconds left an idle server at
 * 243 MB for its first half minute (issue 43 item 16).
 */
export function idleCollection(quietMs: number, gc: () => Gc = collector) {
  const quiet = collectionRounds(gc);
  const start = collectionRounds(gc);
  return {
    touch() {
      quiet.after(quietMs);
    },
    afterStart(ms: number) {
      start.after(ms);
    },
    stop() {
      quiet.stop();
      start.stop();
    },
  };
}
