import test from 'ava';
import { join } from 'node:path';
import { freePort, killGroup, repoRoot, run, type Started, waitForOutput } from '../helpers/process.ts';
import { inexactOutput, markedBlocks, missingExcerpt, readmePath } from '../helpers/readme-blocks.ts';
import { tempDir } from '../helpers/temp.ts';

const LISTENING = /KBQA listening on http:\/\/127\.0\.0\.1:\d+\/v1.*\n/;
const README_PORT = '2678';

test('the README quick start runs as written against `npm start` and answers what the README shows', async (t) => {
  t.timeout(240_000);
  const blocks = markedBlocks(readmePath(repoRoot));
  const runs = blocks.filter((b) => b.kind === 'run');
  t.true(runs.length >= 3, 'the quick start marks its shell blocks with <!-- quickstart:run -->');
  const dir = tempDir();
  const port = String(await freePort());
  // The README's commands name the default port and ./data; the test gives the same commands its own.
  const local = (text: string) => text.replaceAll(`localhost:${README_PORT}`, `localhost:${port}`).replaceAll(`127.0.0.1:${README_PORT}`, `127.0.0.1:${port}`);
  const env = { KBQA_DATA_DIR: join(dir.path, 'data'), PORT: port, KBQA_LOG_LEVEL: 'warn' };
  const servers: Started[] = [];
  const start = async () => {
    const server = run('npm', ['start'], env);
    servers.push(server);
    await waitForOutput(server, LISTENING, 60_000);
    return server;
  };
  try {
    const first = await start();
    const shownStart = blocks.find((b) => b.kind === 'server-output')!;
    t.is(missingExcerpt(local(shownStart.body), first.output()), null, first.output());

    // One shell, so the variables one block sets (KEY, KB) reach the next; a marker line splits the output per block
    // (on a line of its own: curl's JSON ends without a newline).
    const again = 'AGAIN=$(npx kbqa demo --key "$KEY"); echo "first $KB again $AGAIN"';
    const steps = [...runs.map((b) => local(b.body)), again];
    const script = ['set -euo pipefail', 'exec 2>&1', ...steps.flatMap((body, i) => [`printf '\\n@@block ${i}@@\\n'`, body])].join('\n');
    const shell = run('bash', ['-c', script], env);
    const code = await shell.exited;
    t.is(code, 0, shell.output());
    const outputs = shell.output().split(/^@@block \d+@@$/m).slice(1);
    t.is(outputs.length, steps.length);
    // `kbqa demo` again: the same knowledge base, nothing uploaded twice.
    const rerun = outputs[runs.length]!;
    const [, firstId, againId] = rerun.match(/first (kb_\w+) again (kb_\w+)/) ?? [];
    t.truthy(firstId);
    t.is(againId, firstId, rerun);
    t.notRegex(rerun, /Uploaded/);

    let checked = 0;
    let exact = 0;
    blocks.forEach((block, i) => {
      if (block.kind !== 'output' && block.kind !== 'output-exact') return;
      const ran = runs.indexOf(blocks[i - 1]!);
      t.true(ran >= 0, `an output block follows a run block: ${block.body.slice(0, 60)}`);
      const missing = missingExcerpt(local(block.body), outputs[ran]!);
      t.is(missing, null, `README block ${ran + 1} shows "${missing}" but printed:\n${outputs[ran]}`);
      // The OpenAI client's example prints what the page shows, no citation more (issue 43 item 11).
      if (block.kind === 'output-exact') {
        t.is(inexactOutput(local(block.body), outputs[ran]!), null, `README block ${ran + 1} prints other lines than it shows:\n${outputs[ran]}`);
        exact++;
      }
      checked++;
    });
    t.true(checked >= 3);
    t.true(exact >= 1, 'the OpenAI client example is an output-exact block');

    const keyless = run('node', ['bin/kbqa.js', 'demo'], { ...env, KBQA_API_KEY: '' });
    t.is(await keyless.exited, 1);
    t.regex(keyless.output(), /demo needs an API key .* npx kbqa keys create --name me/);

    killGroup(first, 'SIGTERM');
    await first.exited;
    const second = await start();
    const shownRestart = blocks.find((b) => b.kind === 'restart-output')!;
    t.is(missingExcerpt(local(shownRestart.body), second.output()), null, second.output());
  } finally {
    for (const server of servers) {
      if (server.child.exitCode === null && server.child.signalCode === null) killGroup(server, 'SIGKILL');
      await server.exited;
    }
    dir.remove();
  }
});
