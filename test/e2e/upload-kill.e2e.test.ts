import test from 'ava';
import { existsSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort, killGroup, run, waitForOutput } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp.ts';

const ADMIN = 'upload-kill-admin-key-0123456789';

const listed = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

async function until(condition: () => boolean, timeoutMs = 20_000) {
  for (const end = Date.now() + timeoutMs; !condition(); ) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('killed mid-upload: the next start removes the half-written temporary blob, and no finished blob', async (t) => {
  t.timeout(120_000);
  const dir = tempDir();
  const port = String(await freePort());
  const env = { KBQA_DATA_DIR: dir.path, PORT: port, HOST: '127.0.0.1', KBQA_ADMIN_KEY: ADMIN, KBQA_LOG_LEVEL: 'info', KBQA_PARSER_THREADS: '1', KBQA_PARSER_WARMUP: 'off' };
  const base = `http://127.0.0.1:${port}/v1`;
  const headers = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
  const blobs = join(dir.path, 'blobs');
  const tmp = join(blobs, 'tmp');
  const started: ReturnType<typeof run>[] = [];
  try {
    const first = run('node', ['bin/kbqa.js', 'serve'], env);
    started.push(first);
    await waitForOutput(first, /KBQA listening/);
    const kb = (await (await fetch(`${base}/knowledge-bases`, { method: 'POST', headers, body: JSON.stringify({ name: 'uploads' }) })).json()) as { id: string };
    const done = await fetch(`${base}/knowledge-bases/${kb.id}/documents`, { method: 'POST', headers, body: JSON.stringify({ name: 'kept.txt', text: 'A finished upload: its blob must survive the sweep.' }) });
    t.is(done.status, 202);
    const finished = () => listed(blobs).filter((name) => name !== 'tmp').flatMap((shard) => listed(join(blobs, shard)));
    t.is(finished().length, 1);

    // An upload that has begun and not ended: its bytes are in a temporary file when the kill lands.
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => {});
    const boundary = 'b0undary';
    socket.write(`POST /v1/knowledge-bases/${kb.id}/documents HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${ADMIN}\r\ncontent-type: multipart/form-data; boundary=${boundary}\r\ntransfer-encoding: chunked\r\n\r\n`);
    const part = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="cut.txt"\r\ncontent-type: text/plain\r\n\r\n${'The words of a file that never ends. '.repeat(2000)}`;
    socket.write(`${part.length.toString(16)}\r\n${part}\r\n`);
    await until(() => listed(tmp).length === 1);
    killGroup(first, 'SIGKILL');
    await first.exited;
    socket.destroy();
    t.is(listed(tmp).length, 1, 'the kill left the temporary file behind');

    const second = run('node', ['bin/kbqa.js', 'serve'], env);
    started.push(second);
    await waitForOutput(second, /KBQA listening/);
    t.deepEqual(listed(tmp), [], 'swept at start');
    t.is(finished().length, 1, 'the finished blob is untouched');
    t.regex(second.output(), /removed temporary files of uploads cut short/);
    const docs = (await (await fetch(`${base}/knowledge-bases/${kb.id}/documents`, { headers })).json()) as { data: { name: string }[] };
    t.deepEqual(docs.data.map((d) => d.name), ['kept.txt']);
    killGroup(second, 'SIGKILL');
    await second.exited;
  } finally {
    for (const server of started) if (server.child.exitCode === null && server.child.signalCode === null) killGroup(server, 'SIGKILL');
    await Promise.all(started.map((server) => server.exited));
    dir.remove();
  }
});
