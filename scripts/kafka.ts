/**
 * `npm run kafka:up` / `npm run kafka:down`: a real Apache Kafka broker (the version kafka/pom.xml
 * pins) for development and CI, without Docker. `up` fetches the jars with Maven when missing,
 * formats a single-node KRaft store under .kafka/, starts the JVM in the background, waits until
 * it serves metadata and a group coordinator, and prints `KAFKA_BROKERS=127.0.0.1:<port>` as its
 * last line (again when it is already up). `down` stops it (SIGTERM, then SIGKILL) and deletes its data.
 * `stop` stops it and keeps its data: the next `up` starts it again on the same port over the same
 * log (what a broker restart test needs). KAFKA_HOME runs another instance in a directory of its
 * own (default .kafka/ in the repository).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrokerPorts, log4jProperties, serverProperties } from './kafka/broker-config.ts';
import { alive, answers, freePort, stopProcess } from './kafka/process.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const lib = join(root, 'kafka', 'lib');
const home = process.env.KAFKA_HOME ?? join(root, '.kafka');
const stateFile = join(home, 'broker.json');
const logFile = join(home, 'broker.log');
/** A cold JVM on a busy 2-core machine takes 20 s or more to serve its first request. */
const START_TIMEOUT_MS = Number(process.env.KAFKA_START_TIMEOUT_MS ?? 120_000);

type State = { pid: number; port: number };
const readState = (): State | null => (existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as State) : null);

function java(args: string[], options: Parameters<typeof spawnSync>[2] = {}) {
  return spawnSync('java', ['-cp', join(lib, '*'), ...args], { encoding: 'utf8', ...options });
}

function ensureJars(): void {
  if (existsSync(lib) && readdirSync(lib).some((f) => /^kafka_2\.13-.*\.jar$/.test(f))) return;
  process.stderr.write('kafka: fetching the broker jars with Maven (kafka/pom.xml)…\n');
  // Maven's output goes to stderr: stdout carries only the KAFKA_BROKERS line that callers read.
  const mvn = spawnSync('mvn', ['-q', '-B', '-Dstyle.color=never', '-f', join(root, 'kafka', 'pom.xml'), 'package'], { stdio: ['ignore', 2, 'inherit'] });
  if (mvn.error || mvn.status !== 0) throw new Error(`mvn failed (${mvn.error?.message ?? `exit ${mvn.status}`}); Java 17+ and Maven are needed`);
}

async function up(): Promise<void> {
  const running = readState();
  if (running && alive(running.pid) && (await answers(running.port, 10_000))) return void console.log(`KAFKA_BROKERS=127.0.0.1:${running.port}`);
  if (running) await down(); // a stale or dead broker: start afresh
  ensureJars();
  const data = join(home, 'data');
  const properties = join(home, 'server.properties');
  const log4j = `-Dlog4j2.configurationFile=${join(home, 'log4j2.properties')}`;
  // After `stop` the formatted log is there: start over it with the same properties (ports, data).
  const resumed = existsSync(join(data, 'meta.properties')) && existsSync(properties);
  const ports = resumed ? portsOf(readFileSync(properties, 'utf8')) : { broker: await freePort(), controller: await freePort() };
  if (!resumed) {
    mkdirSync(data, { recursive: true });
    writeFileSync(properties, serverProperties(ports, data));
    writeFileSync(join(home, 'log4j2.properties'), log4jProperties);
    // A cluster id is 16 random bytes in URL-safe base64 without padding (what `random-uuid` prints).
    const clusterId = randomBytes(16).toString('base64url');
    const format = java([log4j, 'kafka.tools.StorageTool', 'format', '--ignore-formatted', '-t', clusterId, '-c', properties]);
    if (format.status !== 0) throw new Error(`formatting the broker's storage failed:\n${format.stdout}${format.stderr}`);
  }

  const out = openSync(logFile, 'a');
  const heap = process.env.KAFKA_HEAP_OPTS ?? '-Xmx512m -Xms128m';
  const child = spawn('java', [...heap.split(/\s+/), log4j, '-cp', join(lib, '*'), 'kafka.Kafka', join(home, 'server.properties')], {
    detached: true,
    stdio: ['ignore', out, out],
  });
  child.unref();
  writeFileSync(stateFile, JSON.stringify({ pid: child.pid!, port: ports.broker } satisfies State));
  const started = Date.now();
  if (!(await answers(ports.broker, START_TIMEOUT_MS, () => alive(child.pid!)))) {
    const tail = readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
    await down();
    throw new Error(`the broker did not answer within ${START_TIMEOUT_MS} ms; the end of ${logFile}:\n${tail}`);
  }
  process.stderr.write(`kafka: broker up in ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${child.pid}, log ${logFile})\n`);
  console.log(`KAFKA_BROKERS=127.0.0.1:${ports.broker}`);
}

/** The ports a server.properties written by `up` names. */
function portsOf(properties: string): BrokerPorts {
  const port = (name: string) => Number(new RegExp(`${name}://127\\.0\\.0\\.1:(\\d+)`).exec(properties)?.[1]);
  return { broker: port('PLAINTEXT'), controller: port('CONTROLLER') };
}

/** Stops the broker (SIGTERM, then SIGKILL) and keeps its data for the next `up`. */
async function stop(): Promise<void> {
  const state = readState();
  if (state && alive(state.pid)) await stopProcess(state.pid, 30_000);
  rmSync(stateFile, { force: true });
}

async function down(): Promise<void> {
  await stop();
  rmSync(join(home, 'data'), { recursive: true, force: true });
}

const command = process.argv[2];
if (command === 'up') await up();
else if (command === 'down') await down();
else if (command === 'stop') await stop();
else {
  process.stderr.write('usage: node --import tsx scripts/kafka.ts up|stop|down\n');
  process.exitCode = 2;
}
