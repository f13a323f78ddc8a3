import test from 'ava';
import { ADMIN_KEY } from '../helpers/admin-key.ts';
import { lockBroker } from '../helpers/mixed-profile.ts';
import { freePort, killGroup, run } from '../helpers/process.ts';
import { withService } from '../helpers/services.ts';
import { tempDir } from '../helpers/temp.ts';

/**
 * `kbqa serve` as a process, asked /readyz as often as it answers from the moment it listens; the
 * first request goes the moment it says ready, with the configured admin key. Ready means that
 * key works: every key recorded before the start (here, the one the start itself records).
 */
async function firstRequestWhenReady(env: Record<string, string>) {
  const dir = tempDir();
  const port = await freePort();
  const started = run('node', ['bin/kbqa.js', 'serve'], { KBQA_DATA_DIR: dir.path, PORT: String(port), HOST: '127.0.0.1', KBQA_ADMIN_KEY: ADMIN_KEY, KBQA_LOG_LEVEL: 'warn', ...env });
  try {
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 120_000;
    let notReady = 0;
    for (;;) {
      if (Date.now() > deadline) throw new Error(`never ready; output:\n${started.output()}`);
      const ready = await fetch(`${url}/readyz`).then((r) => r.status, () => null);
      if (ready === 200) break;
      if (ready === 503) notReady++;
      await new Promise((r) => setTimeout(r, 5));
    }
    const first = await fetch(`${url}/v1/knowledge-bases`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    return { status: first.status, body: await first.text(), notReady, output: started.output };
  } finally {
    killGroup(started, 'SIGKILL');
    await started.exited;
    dir.remove();
  }
}

test('embedded profile: the first request the moment /readyz says ready is answered with the configured admin key', async (t) => {
  t.timeout(150_000);
  const { status, body } = await firstRequestWhenReady({});
  t.is(status, 200, body);
});

withService(test, 'mixed profile readiness (embedded store, Kafka bus)', ['KAFKA_BROKERS'], (env) => {
  test('mixed profile: /readyz says ready only once the admin key recorded at start authenticates', async (t) => {
    t.timeout(400_000);
    const release = await lockBroker(env.KAFKA_BROKERS!);
    t.teardown(release);
    const { status, body, notReady, output } = await firstRequestWhenReady({ KAFKA_BROKERS: env.KAFKA_BROKERS!, KAFKA_TOPIC_PARTITIONS: '3' });
    t.is(status, 200, `${body}\n${output()}`);
    t.log(`/readyz answered 503 ${notReady} times before ready`);
  });
});
