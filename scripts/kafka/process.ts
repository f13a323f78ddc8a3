import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Kafka, logLevel } from 'kafkajs';

/** Whether a process with this id exists (signal 0 checks without sending anything). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A loopback port nobody listens on now (the OS picks it; there is a small race until the broker binds it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Whether the broker serves metadata and a group coordinator within `timeoutMs`. The coordinator
 * matters: the first group join creates the offsets topic, and a consumer that arrives meanwhile
 * crashes and restarts ("not the correct coordinator"), which would slow the first test.
 */
export async function answers(port: number, timeoutMs: number, stillRunning: () => boolean = () => true): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  const kafka = new Kafka({ clientId: 'kbqa-kafka-up', brokers: [`127.0.0.1:${port}`], logLevel: logLevel.NOTHING, retry: { retries: 0 }, connectionTimeout: 2000 });
  while (Date.now() < deadline && stillRunning()) {
    const admin = kafka.admin();
    try {
      await admin.connect();
      await admin.describeCluster();
      await admin.describeGroups(['kbqa.kafka-up']);
      return true;
    } catch {
      await sleep(500);
    } finally {
      await admin.disconnect().catch(() => {});
    }
  }
  return false;
}

/** SIGTERM (the broker shuts down cleanly), then SIGKILL when it has not exited after `graceMs`. */
export async function stopProcess(pid: number, graceMs: number): Promise<void> {
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (alive(pid) && Date.now() < deadline) await sleep(200);
  if (alive(pid)) {
    process.stderr.write(`kafka: pid ${pid} did not stop within ${graceMs} ms; killing it\n`);
    process.kill(pid, 'SIGKILL');
  }
}
