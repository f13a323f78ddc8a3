import test from 'ava';
import { freePort, killGroup, run, waitForOutput } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp.ts';

/**
 * `kbqa serve` in a terminal (util-linux `script` gives it a pseudo-terminal, as a person's shell
 * would): a request's access line reads as a line of text, not JSON. Off a terminal it stays JSON.
 */
test('in a terminal the server writes human log lines; KBQA_LOG_FORMAT=json keeps JSON there', async (t) => {
  t.timeout(120_000);
  const serveInTerminal = async (env: Record<string, string>) => {
    const dir = tempDir();
    const port = await freePort();
    const started = run('script', ['-qefc', 'node bin/kbqa.js serve', '/dev/null'], { KBQA_DATA_DIR: dir.path, PORT: String(port), HOST: '127.0.0.1', ...env });
    t.teardown(() => {
      killGroup(started, 'SIGTERM');
      dir.remove();
    });
    await waitForOutput(started, /KBQA listening on/, 60_000);
    await fetch(`http://127.0.0.1:${port}/v1/models`);
    return started;
  };
  const pretty = await serveInTerminal({ KBQA_LOG_FORMAT: '' });
  const line = await waitForOutput(pretty, /^\d\d:\d\d:\d\d\.\d{3} INFO {2}GET \/v1\/models 401 [\d.]+ ms {2}requestId=\S+ keyId=null\r?$/m);
  t.truthy(line);
  t.notRegex(pretty.output(), /"level":/);

  const json = await serveInTerminal({ KBQA_LOG_FORMAT: 'json' });
  await waitForOutput(json, /"method":"GET","route":"\/v1\/models","status":401/);
  t.pass();
});
