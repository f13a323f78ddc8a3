import test from 'ava';
import { joinDataDir, lockDataDir } from '../../src/adapters/sqlite/data-dir-lock.ts';
import { tempDir } from '../helpers/temp.ts';

const kafka = { brokers: ['127.0.0.1:9092'], namespace: 'ns-' };

test('one owner per data directory; parse workers join it beside the owner, and maintenance waits for both', (t) => {
  const dir = tempDir();
  try {
    t.throws(() => joinDataDir(dir.path, kafka), { message: /--role worker: no kbqa server holds .*; start the owner first/ });
    const owner = lockDataDir(dir.path, 'serve', { kafka });
    t.throws(() => lockDataDir(dir.path, 'serve', { kafka }), { message: new RegExp(`in use by process ${process.pid} \\(serve\\); stop it first`) });
    const workers = [joinDataDir(dir.path, kafka), joinDataDir(dir.path, { ...kafka, brokers: ['other:9092', ...kafka.brokers] })];
    owner();
    // The owner gone, a replay still may not rewrite the read models under a worker.
    t.throws(() => lockDataDir(dir.path, 'replay', { alone: true }), { message: /in use by parse workers \(kbqa serve --role worker\); stop them first/ });
    t.throws(() => joinDataDir(dir.path, kafka), { message: /no kbqa server holds/ });
    workers[0]!();
    t.throws(() => lockDataDir(dir.path, 'replay', { alone: true }), { message: /in use by parse workers/ });
    workers[1]!();
    const replay = lockDataDir(dir.path, 'replay', { alone: true });
    t.throws(() => joinDataDir(dir.path, kafka), { message: new RegExp(`--role worker: .* is in use by process ${process.pid} \\(replay\\); wait for it to end`) });
    replay();
    // A serving owner starts beside workers: it is what they need.
    const again = lockDataDir(dir.path, 'serve', { kafka });
    const worker = joinDataDir(dir.path, kafka);
    worker();
    again();
  } finally {
    dir.remove();
  }
});

test('a worker refuses an owner on no bus or on other topics, saying what to set', (t) => {
  const dir = tempDir();
  try {
    let owner = lockDataDir(dir.path, 'serve');
    t.throws(() => joinDataDir(dir.path, kafka), { message: /runs without KAFKA_BROKERS, so it publishes nothing for workers to take/ });
    owner();
    owner = lockDataDir(dir.path, 'serve', { kafka: { ...kafka, namespace: '' } });
    t.throws(() => joinDataDir(dir.path, kafka), { message: /uses brokers 127.0.0.1:9092 and KAFKA_NAMESPACE ''; set the same/ });
    owner();
  } finally {
    dir.remove();
  }
});
