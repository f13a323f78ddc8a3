import test from 'ava';
import { freePort, killGroup, run, waitForOutput } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp.ts';

const LISTENING = /KBQA listening on http:\/\/127\.0\.0\.1:(\d+)\/v1/;

test('npm start: first start prints a key; after SIGKILL everything is still there; replay and keys create from the CLI', async (t) => {
  t.timeout(120_000);
  const dir = tempDir();
  const port = String(await freePort());
  const env = { KBQA_DATA_DIR: dir.path, PORT: port, HOST: '127.0.0.1', KBQA_LOG_LEVEL: 'warn' };
  const base = `http://127.0.0.1:${port}`;
  try {
    const first = run('npm', ['start'], env);
    await waitForOutput(first, LISTENING);
    const key = (await waitForOutput(first, /^\s+(kbqa-[\w-]+)$/m))[1]!;
    const auth = { authorization: `Bearer ${key}` };
    const created = await fetch(`${base}/v1/knowledge-bases`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Survives kill -9', settings: { top_k: 12 } }),
    });
    t.is(created.status, 201);
    const kb = (await created.json()) as { id: string };

    killGroup(first, 'SIGKILL');
    await first.exited;

    const second = run('npm', ['start'], env);
    await waitForOutput(second, LISTENING);
    t.false(/kbqa-[\w-]{20,}/.test(second.output()), 'the admin key is printed on the very first start only');
    const found = await fetch(`${base}/v1/knowledge-bases/${kb.id}`, { headers: auth });
    t.is(found.status, 200);
    t.like(await found.json(), { id: kb.id, name: 'Survives kill -9', settings: { top_k: 12 } });

    killGroup(second, 'SIGKILL');
    await second.exited;

    // With the server stopped: rebuild the read models and mint a read-only key from the CLI.
    const replay = run('node', ['bin/kbqa.js', 'replay'], env);
    t.is(await replay.exited, 0, replay.output());
    t.regex(replay.output(), /replayed \d+ events into \d+ read models/);
    const keys = run('node', ['bin/kbqa.js', 'keys', 'create', '--name', 'reader', '--scopes', 'read'], env);
    t.is(await keys.exited, 0, keys.output());
    const reader = JSON.parse(keys.output().slice(keys.output().indexOf('{'))) as { secret: string; scopes: string[] };
    t.deepEqual(reader.scopes, ['read']);

    const third = run('npm', ['start'], env);
    await waitForOutput(third, LISTENING);
    const again = await fetch(`${base}/v1/knowledge-bases/${kb.id}`, { headers: { authorization: `Bearer ${reader.secret}` } });
    t.is(again.status, 200);
    killGroup(third, 'SIGKILL');
    await third.exited;
  } finally {
    dir.remove();
  }
});

test('KBQA_ADMIN_KEY bootstraps the default workspace idempotently, and a second server on the same data dir is refused', async (t) => {
  t.timeout(60_000);
  const dir = tempDir();
  const port = String(await freePort());
  const adminKey = 'bootstrap-admin-key-for-e2e-0001';
  const env = { KBQA_DATA_DIR: dir.path, PORT: port, HOST: '127.0.0.1', KBQA_ADMIN_KEY: adminKey, KBQA_LOG_LEVEL: 'warn' };
  try {
    for (let i = 0; i < 2; i++) {
      const server = run('npm', ['start'], env);
      await waitForOutput(server, LISTENING);
      t.false(/kbqa-[\w-]{20,}/.test(server.output()));
      const res = await fetch(`http://127.0.0.1:${port}/v1/api-keys`, { headers: { authorization: `Bearer ${adminKey}` } });
      t.is(res.status, 200);
      t.is(((await res.json()) as { data: unknown[] }).data.length, 1, 'one bootstrap key however often it starts');
      if (i === 1) {
        const intruder = run('node', ['bin/kbqa.js', 'serve'], { ...env, PORT: String(await freePort()) });
        t.is(await intruder.exited, 1);
        t.regex(intruder.output(), /in use by process \d+ \(serve\)/);
      }
      killGroup(server, 'SIGKILL');
      await server.exited;
    }
  } finally {
    dir.remove();
  }
});

test('kbqa workspaces create takes ids of letters, digits, - and _ (1–64) and refuses others before opening anything', async (t) => {
  t.timeout(60_000);
  const dir = tempDir();
  try {
    const env = { KBQA_DATA_DIR: dir.path, KBQA_LOG_LEVEL: 'warn' };
    const bad = run('node', ['bin/kbqa.js', 'workspaces', 'create', 'team one/../x'], env);
    t.is(await bad.exited, 1);
    t.regex(bad.output(), /workspace id 'team one\/\.\.\/x' must be 1–64 letters, digits, '-' or '_'/);
    const good = run('node', ['bin/kbqa.js', 'workspaces', 'create', 'Team_one-2'], env);
    t.is(await good.exited, 0, good.output());
    t.regex(good.output(), /Created workspace 'Team_one-2'/);
  } finally {
    dir.remove();
  }
});
