import type { SandboxError } from '../js-sandbox.ts';

/** A sandbox thread's answer to call `id`: its value, or a fault (`code` set: the code's; unset: the thread's own). */
export type ThreadReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; code?: SandboxError['code']; message: string };
