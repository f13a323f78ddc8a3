/**
 * `npm run ferretdb:up` / `npm run ferretdb:down`: FerretDB (Apache-2.0), which speaks MongoDB's
 * wire protocol over SQLite, for running the MongoDB adapters' contract suites where no MongoDB
 * server can be installed. It is NOT MongoDB: docs/ferretdb.md says which of the features we use
 * it lacks. `up` builds the pinned version with Go when .ferretdb/bin has no binary of it, starts
 * it in the background on a free loopback port with its data under .ferretdb/data, waits until it
 * answers `hello`, and prints `FERRETDB_URL=mongodb://127.0.0.1:<port>/` as its last line (again
 * when it is already up). `down` stops it and deletes its data.
 */
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildFerretDb } from './ferretdb/build.ts';
import { alive, freePort, stopProcess } from './kafka/process.ts';

/** The last v1 release: v1 is the line with the SQLite backend (v2 needs PostgreSQL with DocumentDB). */
const VERSION = 'v1.24.2';
const root = fileURLToPath(new URL('..', import.meta.url));
const home = join(root, '.ferretdb');
const binary = join(home, 'bin', `ferretdb-${VERSION}`);
const stateFile = join(home, 'server.json');
const logFile = join(home, 'ferretdb.log');
const START_TIMEOUT_MS = Number(process.env.FERRETDB_START_TIMEOUT_MS ?? 30_000);

type State = { pid: number; port: number };
const readState = (): State | null => (existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as State) : null);
const urlOf = (port: number) => `mongodb://127.0.0.1:${port}/`;

/** Whether the server answers `hello` within `timeoutMs`, polling while it still runs. */
async function answers(port: number, timeoutMs: number, stillRunning: () => boolean = () => true): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && stillRunning()) {
    const client = new MongoClient(urlOf(port), { serverSelectionTimeoutMS: 1000, connectTimeoutMS: 1000 });
    try {
      await client.db('admin').command({ hello: 1 });
      return true;
    } catch {
      await sleep(250);
    } finally {
      await client.close().catch(() => {});
    }
  }
  return false;
}

async function up(): Promise<void> {
  const running = readState();
  if (running && alive(running.pid) && (await answers(running.port, 5_000))) return void console.log(`FERRETDB_URL=${urlOf(running.port)}`);
  if (running) await down(); // a stale or dead server: start afresh
  if (!existsSync(binary)) buildFerretDb(VERSION, binary);
  const port = await freePort();
  const data = join(home, 'data');
  mkdirSync(data, { recursive: true });
  const out = openSync(logFile, 'a');
  const args = [
    '--handler=sqlite',
    `--sqlite-url=file:${data}/`,
    `--listen-addr=127.0.0.1:${port}`,
    // No debug HTTP listener (its default port 8088 would clash with a second instance), no state
    // file, and no telemetry (it would try to reach beacon.ferretdb.com).
    '--debug-addr=-',
    '--state-dir=-',
    '--telemetry=disable',
    '--log-level=warn',
  ];
  const child = spawn(binary, args, { detached: true, stdio: ['ignore', out, out] });
  child.unref();
  writeFileSync(stateFile, JSON.stringify({ pid: child.pid!, port } satisfies State));
  const started = Date.now();
  if (!(await answers(port, START_TIMEOUT_MS, () => alive(child.pid!)))) {
    const tail = readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
    await down();
    throw new Error(`FerretDB did not answer within ${START_TIMEOUT_MS} ms; the end of ${logFile}:\n${tail}`);
  }
  process.stderr.write(`ferretdb: ${VERSION} up in ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${child.pid}, log ${logFile})\n`);
  console.log(`FERRETDB_URL=${urlOf(port)}`);
}

async function down(): Promise<void> {
  const state = readState();
  if (state && alive(state.pid)) await stopProcess(state.pid, 10_000);
  rmSync(join(home, 'data'), { recursive: true, force: true });
  rmSync(stateFile, { force: true });
}

const command = process.argv[2];
if (command === 'up') await up();
else if (command === 'down') await down();
else {
  process.stderr.write('usage: node --import tsx scripts/ferretdb.ts up|down\n');
  process.exitCode = 2;
}
