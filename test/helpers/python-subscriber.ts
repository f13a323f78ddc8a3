import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './process.ts';

export const SUBSCRIBER_DIR = join(repoRoot, 'examples', 'python-subscriber');
const SETUP = 'python3 -m venv .venv && .venv/bin/pip install -r examples/python-subscriber/requirements.txt';

/**
 * The Python that runs examples/python-subscriber: KBQA_PYTHON when set, else the venv .ci/run
 * makes (`.venv/bin/python`), else `python3`; with the reason when it cannot import what the
 * subscriber needs.
 */
export function subscriberPython(): { python: string } | { missing: string } {
  const venv = join(repoRoot, '.venv', 'bin', 'python');
  const python = process.env.KBQA_PYTHON || (existsSync(venv) ? venv : 'python3');
  const probe = spawnSync(python, ['-c', 'import confluent_kafka, jsonschema'], { encoding: 'utf8' });
  if (probe.error) return { missing: `${python} cannot run (${probe.error.message}); set KBQA_PYTHON or run: ${SETUP}` };
  if (probe.status !== 0) {
    const why = probe.stderr.trim().split('\n').at(-1) ?? `exit ${probe.status}`;
    return { missing: `${python} lacks the subscriber's packages (${why}); run: ${SETUP}` };
  }
  return { python };
}

export type SubscriberRun = { code: number | null; stdout: string; stderr: string };

export type PythonSubscriber = {
  /** The lifecycle lines printed so far (stdout, whole lines only). */
  lines(): string[];
  stderr(): string;
  waitFor(condition: (lines: string[]) => boolean, what: string, timeoutMs: number): Promise<void>;
  /** Its exit, once a limit it was given (--max-messages, --timeout) stopped it. */
  finished(): Promise<SubscriberRun>;
  /** SIGTERM (the subscriber leaves its group and prints its summary), then its exit. */
  stop(): Promise<SubscriberRun>;
};

/** subscriber.py with these arguments, its stdout and stderr kept apart (lifecycles, reports). */
export function startPythonSubscriber(python: string, args: string[]): PythonSubscriber {
  // stdout is a pipe: without -u Python would hold lines back in its buffer.
  const child = spawn(python, ['-u', join(SUBSCRIBER_DIR, 'subscriber.py'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let ended = false;
  void exited.then(() => (ended = true)); // only flags the end; stop() awaits the same promise
  const lines = () => stdout.split('\n').slice(0, -1);
  return {
    lines,
    stderr: () => stderr,
    async waitFor(condition, what, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (!condition(lines())) {
        if (ended) throw new Error(`the subscriber exited before ${what}; stderr:\n${stderr}`);
        if (Date.now() > deadline) throw new Error(`no ${what} after ${timeoutMs} ms; stdout:\n${stdout}\nstderr:\n${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    finished: async () => ({ code: await exited, stdout, stderr }),
    async stop() {
      if (!ended) child.kill('SIGTERM');
      return { code: await exited, stdout, stderr };
    },
  };
}
