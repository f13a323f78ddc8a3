import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { freePort, killGroup, repoRoot, run, waitForOutput } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp.ts';

/**
 * The addresses listening on `port`, read from the kernel's socket tables (Linux), so that the test
 * sees what the process bound without connecting to any address but loopback.
 */
function listeningAddresses(port: number): string[] {
  const LISTEN = '0A';
  const rows = ['tcp', 'tcp6'].flatMap((table) => readFileSync(`/proc/net/${table}`, 'utf8').split('\n').slice(1));
  return rows
    .map((row) => row.trim().split(/\s+/))
    .filter((cols) => cols[3] === LISTEN && Number.parseInt(cols[1]!.split(':')[1]!, 16) === port)
    .map((cols) => addressOf(cols[1]!.split(':')[0]!));
}

/** /proc/net/tcp writes an IPv4 address as 8 hex digits in host (little-endian) order; IPv6 as 32. */
function addressOf(hex: string): string {
  if (hex.length === 8) return [6, 4, 2, 0].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join('.');
  return /^0+$/.test(hex) ? '::' : hex;
}

async function startOn(env: Record<string, string>) {
  const dir = tempDir();
  const port = await freePort();
  const started = run('node', ['bin/kbqa.js', 'serve'], { KBQA_DATA_DIR: dir.path, PORT: String(port), KBQA_LOG_LEVEL: 'warn', ...env });
  const stop = () => {
    killGroup(started, 'SIGKILL');
    dir.remove();
  };
  return { started, port, stop };
}

test('npm start binds loopback unless HOST says otherwise, and its start line names the address it bound', async (t) => {
  t.timeout(90_000);
  // An empty variable is unset to the configuration: the default, whatever the caller's environment holds.
  const { started, port, stop } = await startOn({ HOST: '' });
  t.teardown(stop);
  const [, origin] = await waitForOutput(started, /KBQA listening on (http:\/\/[^/\s]+)\/v1/, 60_000);
  t.is(origin, `http://127.0.0.1:${port}`);
  t.regex(started.output(), new RegExp(`Console: http://127\\.0\\.0\\.1:${port}/`));
  t.deepEqual(listeningAddresses(port), ['127.0.0.1'], 'loopback only');
  t.notRegex(started.output(), /every interface/);
  t.is((await fetch(`${origin}/readyz`)).status, 200);
});

test('HOST=0.0.0.0 (what the container image sets) listens on every interface and the start line says so', async (t) => {
  t.timeout(90_000);
  const { started, port, stop } = await startOn({ HOST: '0.0.0.0' });
  t.teardown(stop);
  const [, origin] = await waitForOutput(started, /KBQA listening on (http:\/\/[^/\s]+)\/v1/, 60_000);
  t.is(origin, `http://0.0.0.0:${port}`);
  t.regex(started.output(), /Listening on every interface \(HOST=0\.0\.0\.0\)/);
  t.deepEqual(listeningAddresses(port), ['0.0.0.0']);
});

test('the container image binds every interface; kbqa help names HOST', async (t) => {
  const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
  const runtimeStage = dockerfile.slice(dockerfile.indexOf('AS runtime'));
  t.regex(runtimeStage, /^\s+HOST=0\.0\.0\.0\b/m, 'a container must listen beyond its own loopback to be reached through -p');
  const help = run('node', ['bin/kbqa.js', 'help'], {});
  t.is(await help.exited, 0);
  t.regex(help.output(), /\bHOST\b/);
  const serve = run('node', ['bin/kbqa.js', 'help', 'serve'], {});
  t.is(await serve.exited, 0);
  t.regex(serve.output(), /\$HOST/);
});
