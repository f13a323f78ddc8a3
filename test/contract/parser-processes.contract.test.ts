import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { parserBundleEnv } from '../../src/adapters/local/parser-bundle.ts';
import { createWorkerParser, PARSER_NODE_FLAGS } from '../../src/adapters/local/worker-parser.ts';
import { createProcessPool } from '../../src/adapters/local/process-pool.ts';
import { RETIRE_EVENT } from '../../src/parsing/parser-settings.ts';
import { findNativeTesseract } from '../../src/parsing/ocr/ocr-native.ts';
import { textImage, writeFixture } from '../unit/parsing-pdf-fixtures.ts';
import { DEFAULT_LIMITS } from '../../src/parsing/types.ts';
import { childrenRunning } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp.ts';

// Alone in its file: it counts this process's parser children, which no other test may start meanwhile.
const dir = tempDir('kbqa-parser-processes-');
test.after.always(() => dir.remove());

const task = (path: string, fileName: string) => ({ documentId: 'doc_test', path, fileName, chunking: { max_tokens: 128, overlap_tokens: 16 }, limits: DEFAULT_LIMITS });

const parserProcesses = () => childrenRunning('worker-process.mjs');

// A bundle left by a server that was killed (its process gone), to be removed when this file's
// first parse builds the next.
const orphan = join(process.cwd(), 'node_modules', '.cache', 'kbqa', `parser-${spawnSync(process.execPath, ['-e', '0']).pid}-test`);
test.before(() => mkdirSync(orphan, { recursive: true }));

test.serial('parser processes start with the first document and end once idle, giving their memory back', async (t) => {
  if (process.platform !== 'linux') return t.pass('reads /proc');
  const parser = createWorkerParser({ threads: 1, maxMemoryMb: 512, idleMs: 300 });
  try {
    t.deepEqual(parserProcesses(), []);
    const text = join(dir.path, 'idle.txt');
    writeFileSync(text, 'A document that starts a parser process.');
    t.like(await parser.parse(task(text, 'idle.txt'), { timeoutMs: 60_000 }), { ok: true });
    t.is(parserProcesses().length, 1);
    const flags = readFileSync(`/proc/${parserProcesses()[0]}/cmdline`, 'utf8').split('\0');
    t.true(PARSER_NODE_FLAGS.every((flag) => flags.includes(flag)), 'the process runs with the parser flags');
    for (let waited = 0; parserProcesses().length > 0 && waited < 10_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    t.deepEqual(parserProcesses(), []);
    t.like(await parser.parse(task(text, 'idle.txt'), { timeoutMs: 60_000 }), { ok: true }, 'a new process starts for the next document');
  } finally {
    await parser.close();
  }
});

test.serial('parser processes load our parsing code compiled once, and the settings handed to them reach their OCR', async (t) => {
  const { KBQA_PARSER_BUNDLE: bundle } = await parserBundleEnv();
  t.truthy(bundle, 'the bundle was built');
  t.false(existsSync(orphan));
  t.true(existsSync(join(bundle!, 'worker-task.js')) && existsSync(join(bundle!, 'parser-settings.js')));
  // The settings module is one instance shared by both entries: an engine asked for is the one
  // used. Without tesseract installed, asking for it fails the scan the default engine reads.
  const scan = writeFixture(dir.path, 'scan.png', textImage(['Settings reach the reader.']).png);
  const parse = async (settings: { ocrEngine?: 'native' }) => {
    const parser = createWorkerParser({ threads: 1, maxMemoryMb: 512, idleMs: 300, settings });
    try {
      return await parser.parse(task(scan, 'scan.png'), { timeoutMs: 60_000 });
    } finally {
      await parser.close();
    }
  };
  t.like(await parse({}), { ok: true });
  if (findNativeTesseract()) t.like(await parse({ ocrEngine: 'native' }), { ok: true });
  else await t.throwsAsync(parse({ ocrEngine: 'native' }));
});

test.serial('a process that asks to go ends as soon as its task is done, not once idle', async (t) => {
  if (process.platform !== 'linux') return t.pass('reads /proc');
  const script = join(dir.path, 'retiring-worker.mjs');
  const workerpool = pathToFileURL(createRequire(import.meta.url).resolve('workerpool')).href;
  writeFileSync(script, `import workerpool from '${workerpool}';\nworkerpool.worker({ small: () => 1, large: () => { workerpool.workerEmit('${RETIRE_EVENT}'); return 2; } });\n`);
  const pool = createProcessPool({ script, processes: 1, idleMs: 60_000 });
  const running = () => childrenRunning('retiring-worker.mjs');
  try {
    t.like(await pool.run('small', [], { timeoutMs: 30_000 }), { ok: true, value: 1 });
    t.is(running().length, 1, 'an idle process stays');
    t.like(await pool.run('large', [], { timeoutMs: 30_000 }), { ok: true, value: 2 }, 'the result still arrives');
    for (let waited = 0; running().length > 0 && waited < 10_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    t.deepEqual(running(), []);
    t.like(await pool.run('small', [], { timeoutMs: 30_000 }), { ok: true, value: 1 }, 'a new process takes the next task');
  } finally {
    await pool.close();
  }
});

test.serial('close returns when a signal to the whole process group ended the pool’s processes a while before (Ctrl-C, systemd)', async (t) => {
  if (process.platform !== 'linux') return t.pass('reads /proc');
  const script = join(dir.path, 'signalled-worker.mjs');
  const workerpool = pathToFileURL(createRequire(import.meta.url).resolve('workerpool')).href;
  writeFileSync(script, `import workerpool from '${workerpool}';\nworkerpool.worker({ small: () => 1 });\n`);
  const pool = createProcessPool({ script, processes: 1, idleMs: 60_000 });
  t.like(await pool.run('small', [], { timeoutMs: 30_000 }), { ok: true, value: 1 });
  const [pid] = childrenRunning('signalled-worker.mjs');
  process.kill(pid!, 'SIGTERM');
  for (let waited = 0; childrenRunning('signalled-worker.mjs').length > 0 && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  // The server leaving its Kafka groups took seconds before it closed the pool.
  await new Promise((r) => setTimeout(r, 500));
  const started = Date.now();
  await pool.close();
  t.true(Date.now() - started < 8_000, `closed in ${Date.now() - started} ms`);
});
