// What the eval runner hands every suite, and where per-question rows go (`--out`, `--failures`).
import { appendFileSync, writeFileSync } from 'node:fs';
import type { ResultRow } from './qa-run.ts';
import { log } from './util.ts';

export type EvalContext = {
  /** The parts of the suite asked for (SciFact's modes, say); all of them when only the suite was named. */
  parts: string[];
  /** Keeps per-question rows for `--out` and `--failures`, and shows a few failures on stderr. */
  record: (rows: readonly ResultRow[]) => void;
};

/** A suite: its run function, and the names of its parts if it can run some of them alone. */
export type Suite = { run: (ctx: EvalContext) => Promise<object>; parts?: readonly string[] };

/** Failures shown on stderr per suite and category: enough to see the pattern, not to drown the log. */
const SAMPLE = 5;

export function createRowSink(files: { out?: string; failures?: string }) {
  for (const file of [files.out, files.failures]) if (file) writeFileSync(file, '');
  const shown = new Map<string, number>();
  const lines = (rows: readonly ResultRow[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join('');
  return (rows: readonly ResultRow[]) => {
    if (files.out) appendFileSync(files.out, lines(rows));
    const failed = rows.filter((r) => !r.correct);
    if (files.failures) appendFileSync(files.failures, lines(failed));
    for (const r of failed) {
      const key = `${r.suite} ${r.category}`;
      const n = shown.get(key) ?? 0;
      if (n >= SAMPLE) continue;
      shown.set(key, n + 1);
      log(`failure ${key} [${r.split}] q: ${r.question} | gold: ${JSON.stringify(r.gold.slice(0, 3))} | answer (${r.citations} cited): ${r.answer.slice(0, 300)}`);
    }
  };
}
