import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { YOUNG_GENERATION_FLAG } from '../src/adapters/local/young-generation.ts';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export type Child = { name: string; proc: ChildProcess };

/** A server in its own process; its stdout and stderr go to our stderr, never our stdout. */
export function startChild(name: string, args: string[], env: Record<string, string>, cwd = ROOT): Child {
  // KBQA_BENCH_SERVER_CPUS=0 pins the server (and its children) to core 0, to compare one core with all.
  const cpus = process.env.KBQA_BENCH_SERVER_CPUS;
  const [command, argv] = cpus ? ['taskset', ['-c', cpus, process.execPath, ...args]] : [process.execPath, args];
  const proc = spawn(command, argv, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const forward = (chunk: Buffer) => process.stderr.write(`[${name}] ${chunk}`);
  proc.stdout!.on('data', forward);
  proc.stderr!.on('data', forward);
  return { name, proc };
}

export async function stopChild({ proc }: Child) {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = once(proc, 'exit');
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

export async function waitFor(child: Child, url: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.proc.exitCode !== null) throw new Error(`${child.name} exited with code ${child.proc.exitCode} before answering ${url}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${child.name} did not answer ${url} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * CPU seconds (user + system) a process has used so far, from /proc (Linux), or null elsewhere.
 * CPU per request is steadier than requests/s when other work shares the machine. With `reaped`,
 * the children it has waited for (ended) are counted in.
 */
export function cpuSeconds(pid: number, { reaped = false } = {}): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    return (reaped ? own + Number(fields[13]) + Number(fields[14]) : own) / CLK_TCK;
  } catch {
    return null;
  }
}


const groupPeaks = new Map<number, number>();

/**
 * Samples a server's process-group memory (parser processes included) every 200 ms until it
 * exits, for peakRssMb. A peak shorter than that can be missed; the main process's own peak
 * (VmHWM) never is.
 */
export function trackGroupPeak(pid: number) {
  const timer = setInterval(() => {
    const now = groupRssMb(pid);
    if (now === 0) return clearInterval(timer);
    groupPeaks.set(pid, Math.max(groupPeaks.get(pid) ?? 0, now));
  }, 200);
  timer.unref();
}

/** Peak resident memory of a server so far, in MB: its process group's sampled peak, or its own VmHWM if higher (Linux). */
export function peakRssMb(pid: number): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    const own = match ? Math.round(Number(match[1]) / 1024) : 0;
    return Math.max(own, groupPeaks.get(pid) ?? 0) || null;
  } catch {
    return groupPeaks.get(pid) ?? null;
  }
}

export type KbqaServer = Child & { base: string; headers: { authorization: string } };

/**
 * The real service (`kbqa serve`) in its own process, on a free loopback port, with its own admin key.
 * `root` is the checkout whose code serves (another worktree, say, to measure an older commit).
 */
export async function startKbqa(dataDir: string, port: number, env: Record<string, string>, root = ROOT): Promise<KbqaServer> {
  const adminKey = `kbqa-bench-${randomBytes(24).toString('base64url')}`;
  const child = startChild('kbqa', [YOUNG_GENERATION_FLAG, 'bin/kbqa.js', 'serve'], {
    KBQA_DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    KBQA_ADMIN_KEY: adminKey,
    KBQA_LOG_LEVEL: 'warn',
    ...env,
  }, root);
  trackGroupPeak(child.proc.pid!);
  return { ...child, base: `http://127.0.0.1:${port}`, headers: { authorization: `Bearer ${adminKey}` } };
}

/** A process and all its descendants (child processes such as parser and query processes). */
export function descendantsAndSelf(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while we looked
    }
  }
  const all: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.pop()!;
    all.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return all;
}

/**
 * CPU seconds a process and its descendants have used so far (Linux; 0 elsewhere). A child that
 * ended (a query or parser process stopping when idle) leaves the live processes, but its time
 * moves to its parent's reaped-children count, which is summed too: so the figure never goes
 * back when a child ends between two readings.
 */
export const groupCpuSeconds = (pid: number) => descendantsAndSelf(pid).reduce((sum, p) => sum + (cpuSeconds(p, { reaped: true }) ?? 0), 0);

/** Resident memory of a process and all its descendants (child processes such as tsx's esbuild), in MB. */
export function groupRssMb(pid: number): number {
  let kb = 0;
  for (const p of descendantsAndSelf(pid)) {
    try {
      kb += Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // the process ended while we looked
    }
  }
  return Math.round(kb / 1024);
}
