import { fork, type ChildProcess } from 'node:child_process';
import type { TaskResult } from './process-pool.ts';

export type RpcProcessesOptions = {
  /** The entry each process runs: it answers `{ id, method, params }` messages with `{ id, ok, value | message }`. */
  script: string;
  processes: number;
  /** A process ends after this long without a call in flight. */
  idleMs: number;
  env?: Record<string, string>;
  /** Node flags of each process; the parent's when absent. */
  execArgv?: string[];
};

type Pending = { resolve: (result: TaskResult<unknown>) => void; timer: NodeJS.Timeout };
type Member = { child: ChildProcess; pending: Map<number, Pending>; idle: NodeJS.Timeout | null };
type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

/**
 * Child processes that each take many calls at once, answered in their own order, for work that
 * must not wait on the caller between two calls. workerpool (the parser pool) hands a process its
 * next task only when the last one's answer has been read, so a query process sat idle while a
 * busy main process got round to that: 0.57 of its core busy at 32 clients, the main process 1.04
 * (measured, 100k chunks). Here calls queue inside the process, in its own event loop.
 *
 * A call goes to the process with the fewest in flight. A call past its deadline, or in flight
 * when its process dies, fails with the pool's failures (process-pool.ts); the process is then
 * killed, and a new one starts on the next call. Messages use the structured clone (`advanced`).
 */
export function createRpcProcesses({ script, processes, idleMs, env, execArgv }: RpcProcessesOptions) {
  const members: Member[] = [];
  let nextId = 1;

  const settle = (member: Member, id: number, result: TaskResult<unknown>) => {
    const call = member.pending.get(id);
    if (!call) return;
    member.pending.delete(id);
    clearTimeout(call.timer);
    call.resolve(result);
    if (member.pending.size === 0 && members.includes(member)) member.idle = setTimeout(() => stop(member), idleMs).unref();
  };

  const stop = (member: Member, failure: TaskResult<never> = { ok: false, failure: 'crashed', message: 'The query process stopped.' }) => {
    const at = members.indexOf(member);
    if (at >= 0) members.splice(at, 1);
    if (member.idle) clearTimeout(member.idle);
    for (const id of [...member.pending.keys()]) settle(member, id, failure);
    member.child.kill('SIGKILL');
  };

  const start = (): Member => {
    const child = fork(script, [], { env: { ...process.env, ...env }, execArgv, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const member: Member = { child, pending: new Map(), idle: null };
    child.on('message', (reply: Reply) => settle(member, reply.id, reply.ok ? { ok: true, value: reply.value } : { ok: false, failure: 'crashed', message: reply.message }));
    child.on('exit', (code, signal) => stop(member, { ok: false, failure: signal === 'SIGABRT' ? 'out_of_memory' : 'crashed', message: `The query process exited (${signal ?? code}).` }));
    child.on('error', () => stop(member));
    members.push(member);
    return member;
  };

  const least = (): Member => {
    const open = members.reduce<Member | undefined>((best, m) => (!best || m.pending.size < best.pending.size ? m : best), undefined);
    return open && (open.pending.size === 0 || members.length >= processes) ? open : start();
  };

  return {
    /** Calls in flight, in all processes together. */
    inFlight: () => members.reduce((n, m) => n + m.pending.size, 0),
    run<T>(method: string, params: unknown[], { timeoutMs }: { timeoutMs: number }): Promise<TaskResult<T>> {
      const member = least();
      if (member.idle) clearTimeout(member.idle);
      member.idle = null;
      const id = nextId++;
      return new Promise((resolve) => {
        const timer = setTimeout(() => stop(member, { ok: false, failure: 'timeout', message: `No answer within ${timeoutMs} ms.` }), timeoutMs);
        member.pending.set(id, { resolve: resolve as Pending['resolve'], timer });
        member.child.send({ id, method, params }, (error) => error && stop(member));
      });
    },
    async close() {
      for (const member of [...members]) stop(member);
    },
  };
}
