import test from 'ava';
import { request } from 'node:http';
import { freePort, killGroup, run, waitForOutput } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp.ts';

test('SIGTERM lets an in-flight request finish, then exits 0 and frees the data dir', async (t) => {
  t.timeout(60_000);
  const dir = tempDir();
  const port = await freePort();
  const adminKey = 'graceful-admin-key-0123456789abcd';
  const env = { KBQA_DATA_DIR: dir.path, PORT: String(port), HOST: '127.0.0.1', KBQA_ADMIN_KEY: adminKey, KBQA_LOG_LEVEL: 'info' };
  try {
    const server = run('node', ['bin/kbqa.js', 'serve'], env);
    await waitForOutput(server, /KBQA listening/);
    const body = JSON.stringify({ name: 'sent across a shutdown' });
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, method: 'POST', path: '/v1/knowledge-bases', headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, text }));
        },
      );
      req.on('error', reject);
      // Half the body now, the rest after the server has been told to stop.
      req.write(body.slice(0, 10));
      setTimeout(() => {
        killGroup(server, 'SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 300);
      }, 200);
    });
    const { status, text } = await response;
    t.is(status, 201, text);
    t.is(await server.exited, 0);
    t.regex(server.output(), /shutting down/);
    const replay = run('node', ['bin/kbqa.js', 'replay'], env);
    t.is(await replay.exited, 0, replay.output());
  } finally {
    dir.remove();
  }
});
