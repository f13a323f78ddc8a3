import releaseSync from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
  shouldInterruptAfterDeadline,
} from 'quickjs-emscripten-core';

/**
 * JavaScript run in QuickJS compiled to WebAssembly: a separate engine with its own heap, so the
 * code sees none of Node (no process, require, import, file, network or timers: QuickJS has none
 * unless the host gives them, and this host gives nothing but the inputs). Not node:vm, whose
 * contexts share the host's engine and whose escapes are well known.
 *
 * Cost: the WASM module is compiled once per process and the runtime (its heap, with the memory
 * limit) is kept between calls; each call gets a fresh context, so nothing one call leaves in its
 * globals reaches the next. The sync variant runs a call to its end on this thread: the interrupt
 * handler is what stops an endless loop, and a runtime that hit a limit is thrown away, as its
 * heap may be left in any state.
 */

// The package's types describe its CommonJS build; Node loads its ESM build, whose default export is the variant itself.
const variant = releaseSync as unknown as QuickJSSyncVariant;

export type SandboxLimits = { memoryBytes: number; maxStackBytes: number };
export type CallLimits = { timeoutMs: number; maxOutputBytes: number };
export type SandboxCall = { code: string; inputs: Record<string, unknown> } & CallLimits;

/** Why a call failed, as a stable code and a message that speaks of the user's code only. */
export class SandboxError extends Error {
  constructor(
    readonly code: 'code_error' | 'code_timeout' | 'code_memory' | 'code_output' | 'code_result',
    message: string,
  ) {
    super(message);
  }
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { memoryBytes: 32 * 1024 * 1024, maxStackBytes: 1024 * 1024 };


/**
 * The harness around the user's code. Its body may `return` a value (the body receives `inputs`)
 * or define `main(inputs)`; either way one value comes out. `__stringify` is taken before the user's
 * code runs, so redefining JSON inside it cannot change how the result is checked; the replacer
 * refuses what JSON would silently drop.
 */
const PRELUDE = `globalThis.__stringify = (() => { const s = JSON.stringify; const r = (k, v) => {
  const t = typeof v; if (t === 'function' || t === 'symbol') throw new TypeError('a ' + t + ' is not a JSON value' + (k ? ' (at "' + k + '")' : ''));
  return v; }; return (v) => s(v, r); })();`;
const wrap = (code: string) => `(function (inputs) {\n${code}\n;if (typeof main === 'function') return main(inputs);\n})(JSON.parse(globalThis.__inputs))`;

export async function createJsSandbox(limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS) {
  // A promise, so that calls made while a replacement compiles wait for it rather than use the old one.
  let module = newQuickJSWASMModuleFromVariant(variant);
  await module;
  let runtime: QuickJSRuntime | undefined;
  const freshRuntime = (engine: QuickJSWASMModule) => {
    const created = engine.newRuntime();
    created.setMemoryLimit(limits.memoryBytes);
    created.setMaxStackSize(limits.maxStackBytes);
    return created;
  };

  /** Runs one call; throws SandboxError for anything the code did wrong. */
  async function run(call: SandboxCall): Promise<unknown> {
    const engine = await module;
    runtime ??= freshRuntime(engine);
    const deadline = Date.now() + call.timeoutMs;
    runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
    const vm = runtime.newContext();
    try {
      const result = callIn(vm, runtime, call, deadline);
      vm.dispose();
      return result;
    } catch (error) {
      if (error instanceof SandboxError && CLEAN_FAILURES.has(error.code)) {
        vm.dispose();
        throw error;
      }
      // A limit reached mid-way leaves the engine's heap in any state, and freeing it may abort the
      // WASM instance: the whole instance is dropped unfreed (the garbage collector takes its memory)
      // and the next call compiles a new one (tens of milliseconds, paid only after such a failure).
      runtime = undefined;
      module = newQuickJSWASMModuleFromVariant(variant);
      throw error instanceof SandboxError ? error : limitReached(deadline);
    }
  }

  return {
    run,
    close() {
      runtime?.dispose();
      runtime = undefined;
    },
  };
}

const CLEAN_FAILURES = new Set<SandboxError['code']>(['code_error', 'code_result', 'code_output']);

const limitReached = (deadline: number) =>
  Date.now() >= deadline ? new SandboxError('code_timeout', 'the code ran past its time limit') : new SandboxError('code_memory', 'the code exhausted the sandbox’s memory or stack');

export type JsSandbox = Awaited<ReturnType<typeof createJsSandbox>>;

function callIn(vm: QuickJSContext, runtime: QuickJSRuntime, call: SandboxCall, deadline: number): unknown {
  vm.unwrapResult(vm.evalCode(PRELUDE)).dispose();
  vm.newString(JSON.stringify(call.inputs)).consume((inputs) => vm.setProp(vm.global, '__inputs', inputs));
  const outcome = vm.evalCode(wrap(call.code), 'code.js');
  if (outcome.error) throw thrown(vm, outcome.error, deadline);
  const value = settle(vm, runtime, outcome.value, deadline);
  const json = vm.getProp(vm.global, '__stringify').consume((stringify) => vm.callFunction(stringify, vm.undefined, value));
  value.dispose();
  if (json.error) throw thrown(vm, json.error, deadline, 'code_result');
  return json.value.consume((text) => parseOutput(vm, text, call.maxOutputBytes));
}

/** An async main's promise, run to its end (its jobs are all in the sandbox: there is no I/O to wait for). */
function settle(vm: QuickJSContext, runtime: QuickJSRuntime, value: QuickJSHandle, deadline: number): QuickJSHandle {
  if (vm.typeof(value) !== 'object' || !vm.getProp(value, 'then').consume((then) => vm.typeof(then) === 'function')) return value;
  const jobs = runtime.executePendingJobs();
  if (jobs.error) throw thrown(jobs.error.context, jobs.error, deadline);
  const state = vm.getPromiseState(value);
  value.dispose();
  if (state.type === 'pending') throw new SandboxError('code_result', 'the code returned a promise that never settles');
  if (state.type === 'rejected') throw thrown(vm, state.error, deadline);
  return state.value;
}

function parseOutput(vm: QuickJSContext, text: QuickJSHandle, maxBytes: number): unknown {
  if (vm.typeof(text) !== 'string') throw new SandboxError('code_result', 'the code returned undefined; return a JSON value (an object, array, string, number, boolean or null)');
  const length = vm.getProp(text, 'length').consume((l) => vm.getNumber(l));
  // Length in UTF-16 units bounds the UTF-8 size from below; the exact check follows the copy.
  if (length > maxBytes) throw tooLarge(maxBytes);
  const json = vm.getString(text);
  if (Buffer.byteLength(json) > maxBytes) throw tooLarge(maxBytes);
  return JSON.parse(json);
}

const tooLarge = (maxBytes: number) => new SandboxError('code_output', `the code's result is larger than ${maxBytes} bytes as JSON`);

/** What the code threw, or the limit it reached, as a SandboxError; the error handle is consumed. */
function thrown(vm: QuickJSContext, handle: QuickJSHandle, deadline: number, code: 'code_error' | 'code_result' = 'code_error'): SandboxError {
  const dumped: unknown = handle.consume((h) => vm.dump(h));
  const { name, message } = typeof dumped === 'object' && dumped !== null ? (dumped as { name?: string; message?: string }) : { name: undefined, message: String(dumped) };
  if (name === 'InternalError' && message === 'interrupted' && Date.now() >= deadline) return new SandboxError('code_timeout', 'the code ran past its time limit');
  if (name === 'InternalError' && /out of memory/i.test(message ?? '')) return new SandboxError('code_memory', 'the code ran out of memory (its limit is the sandbox heap)');
  if (name === 'RangeError' && /stack/i.test(message ?? '')) return new SandboxError('code_memory', 'the code overflowed its stack');
  if (dumped === null && Date.now() >= deadline) return new SandboxError('code_timeout', 'the code ran past its time limit');
  const text = `${name ?? 'Error'}: ${message ?? String(dumped)}`;
  return new SandboxError(code, text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)} … [cut: ${text.length} characters]` : text);
}

/** What a thrown message keeps: the code may throw megabytes, and the message is recorded (the runner cuts it to bytes again). */
const MAX_MESSAGE_CHARS = 4096;
