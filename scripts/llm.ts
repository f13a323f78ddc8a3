/**
 * `npm run llm:up` / `npm run llm:down`: a real OpenAI-compatible LLM server for development and
 * CI, the way a self-hosting user runs one: llama.cpp's server (`python -m llama_cpp.server`, from
 * llama-cpp-python) with SmolLM2-135M-Instruct (docs/decisions.md says why not Ollama). `up`
 * installs both when missing into a cache outside the clone keyed by their versions
 * (scripts/llm/install.ts), verifies the model file's sha256, starts the server on a free loopback
 * port, waits until it answers, and prints `LLM_BASE_URL=http://127.0.0.1:<port>/v1` and
 * `LLM_MODEL=<id>` as its last two lines (again when it is already up). `down` stops it (the pid
 * file is in the cache directory). LLM_INSTANCE names another instance with a state file of its
 * own (a test that kills a server starts one so that the shared one stays up).
 */
import { existsSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureInstalled, installDir, isInstalled, PINS } from './llm/install.ts';
import { alive, freePort, stopProcess } from './kafka/process.ts';

const instance = process.env.LLM_INSTANCE ?? 'default';
if (!/^[a-z0-9-]{1,40}$/.test(instance)) throw new Error(`LLM_INSTANCE must be lower-case letters, digits and '-': ${instance}`);
/** Loading 98 MB and warming up takes seconds; a busy 2-core host can make it many more. */
const START_TIMEOUT_MS = Number(process.env.LLM_START_TIMEOUT_MS ?? 120_000);
/**
 * The context window the server allocates (the model was trained on 8192): room for the default
 * grounded prompt (KBQA_CHAT_MAX_CONTEXT_TOKENS=3000 of passages) and an answer, at a small cost in memory.
 */
const CONTEXT_TOKENS = Number(process.env.LLM_CONTEXT_TOKENS ?? 4096);

type State = { pid: number; port: number };

function stateFile(): string {
  return join(installDir(), `server-${instance}.json`);
}
const readState = (): State | null => (existsSync(stateFile()) ? (JSON.parse(readFileSync(stateFile(), 'utf8')) as State) : null);

function print(port: number): void {
  console.log(`LLM_BASE_URL=http://127.0.0.1:${port}/v1`);
  console.log(`LLM_MODEL=${PINS.model.id}`);
}

/** Whether `GET /v1/models` lists the model within `timeoutMs`, polling while the server still runs. */
async function answers(port: number, timeoutMs: number, stillRunning: () => boolean = () => true): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && stillRunning()) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/v1/models`, { signal: AbortSignal.timeout(2000) });
      const body = (await response.json()) as { data?: { id?: string }[] };
      if (response.ok && body.data?.some((m) => m.id === PINS.model.id)) return true;
    } catch {
      // Not listening yet.
    }
    await sleep(250);
  }
  return false;
}

async function up(): Promise<void> {
  const running = readState();
  if (running && alive(running.pid) && (await answers(running.port, 5_000))) return print(running.port);
  if (running) await down(); // a stale or dead server: start afresh
  const { dir, python, model } = await ensureInstalled();
  const port = await freePort();
  const logFile = join(dir, `server-${instance}.log`);
  const out = openSync(logFile, 'a');
  const args = [
    '-m', 'llama_cpp.server',
    '--model', model,
    '--model_alias', PINS.model.id,
    '--host', '127.0.0.1',
    '--port', String(port),
    '--n_ctx', String(CONTEXT_TOKENS),
    // One thread: on two cores shared with the tests (and other work), two threads spin-wait on each
    // other and generate at 0.5–2 s a token instead of ~25 ms (measured: docs/testing.md).
    '--n_threads', process.env.LLM_THREADS ?? '1',
    '--n_threads_batch', process.env.LLM_THREADS ?? '1',
    // Requests wait their turn: by default a request arriving while a stream runs cuts that stream off (a
    // `[DONE]` without a finish reason), and a KBQA server asks concurrently.
    '--interrupt_requests', 'false',
  ];
  const child = spawn(python, args, { detached: true, stdio: ['ignore', out, out] });
  child.unref();
  writeFileSync(stateFile(), JSON.stringify({ pid: child.pid!, port } satisfies State));
  const started = Date.now();
  if (!(await answers(port, START_TIMEOUT_MS, () => alive(child.pid!)))) {
    const tail = readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
    await down();
    throw new Error(`the LLM server did not answer within ${START_TIMEOUT_MS} ms; the end of ${logFile}:\n${tail}`);
  }
  process.stderr.write(`llm: llama.cpp server up in ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${child.pid}, log ${logFile})\n`);
  print(port);
}

async function down(): Promise<void> {
  const state = readState();
  if (state && alive(state.pid)) await stopProcess(state.pid, 10_000);
  rmSync(stateFile(), { force: true });
}

const [command, ...flags] = process.argv.slice(2);
if (command === 'up' && flags.includes('--if-installed') && !isInstalled()) {
  // A build of llama.cpp takes many minutes on two cores: a caller that cannot afford it (CI on a
  // fresh host, .ci/run) gets no server and the reason, and the real-LLM tests skip saying so.
  process.stderr.write(`llm: not installed in ${installDir()}; \`npm run llm:up\` builds it (docs/testing.md)\n`);
} else if (command === 'up') await up();
else if (command === 'down') await down();
else {
  process.stderr.write('usage: node --import tsx scripts/llm.ts up [--if-installed]|down\n');
  process.exitCode = 2;
}
