import { createServer } from 'node:net';
import test from 'ava';
import { freePort, killGroup, run, waitForOutput } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp.ts';

const LISTENING = /KBQA listening on http:\/\/127\.0\.0\.1:(\d+)\/v1/;
const KEY = /^\s+(kbqa-[\w-]+)$/m;

test('a first start whose port is taken says to set PORT and makes no key; the next start prints it, names the console, and logs no upgrade', async (t) => {
  t.timeout(90_000);
  const dir = tempDir();
  t.teardown(() => dir.remove());
  const port = await freePort();
  const squatter = createServer().listen(port, '127.0.0.1');
  await new Promise((resolve) => squatter.once('listening', resolve));
  const env = { KBQA_DATA_DIR: dir.path, PORT: String(port), HOST: '127.0.0.1' };

  const refused = run('node', ['bin/kbqa.js', 'serve'], env);
  t.is(await refused.exited, 1);
  t.regex(refused.output(), new RegExp(`port ${port} .* is taken .*set PORT`));
  t.notRegex(refused.output(), /kbqa-[\w-]{20,}/, 'no key was made, so none is printed');
  await new Promise((resolve) => squatter.close(resolve));

  const started = run('node', ['bin/kbqa.js', 'serve'], env);
  t.teardown(() => killGroup(started, 'SIGKILL'));
  await waitForOutput(started, LISTENING);
  t.truthy((await waitForOutput(started, KEY))[1], 'the key is printed by the start that listens');
  t.regex(started.output(), new RegExp(`Console: http://127.0.0.1:${port}/`));
  t.notRegex(started.output(), /upgraded to chunk streams/, 'an empty data directory has nothing to upgrade');
});

test('kbqa help [command] and kbqa <command> --help print the usage asked for; keys create prints its key and no log line', async (t) => {
  t.timeout(60_000);
  const help = run('node', ['bin/kbqa.js', 'help'], {});
  t.is(await help.exited, 0);
  t.regex(help.output(), /usage: kbqa <command>/);
  const demo = run('node', ['bin/kbqa.js', 'demo', '--help'], {});
  t.is(await demo.exited, 0);
  t.regex(demo.output(), /demo \[--key KEY\]/);
  t.notRegex(demo.output(), /serve \[--role/, 'only the command asked about');
  const helpKeys = run('node', ['bin/kbqa.js', 'help', 'keys'], {});
  t.is(await helpKeys.exited, 0);
  t.regex(helpKeys.output(), /keys create/);

  const dir = tempDir();
  t.teardown(() => dir.remove());
  const workspace = run('node', ['bin/kbqa.js', 'workspaces', 'create', 'team'], { KBQA_DATA_DIR: dir.path });
  t.is(await workspace.exited, 0, workspace.output());
  t.notRegex(workspace.output(), /"level":\d+/, 'no JSON log line on the terminal');
  const keys = run('node', ['bin/kbqa.js', 'keys', 'create', '--workspace', 'team', '--name', 'me'], { KBQA_DATA_DIR: dir.path });
  t.is(await keys.exited, 0, keys.output());
  t.notRegex(keys.output(), /"level":\d+/, 'no JSON log line on the terminal');
  t.regex(keys.output(), /"secret": "kbqa-/);
});
