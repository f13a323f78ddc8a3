import test from 'ava';
import { loadConfig } from '../../src/config.ts';

test('with no engine variables every port stays embedded', (t) => {
  t.deepEqual(loadConfig({}).distributed, { eventStore: null, kafka: null, mongo: null, pinecone: null });
});

test('engine variables select the distributed adapters; an empty variable means unset', (t) => {
  const config = loadConfig({
    EVENTSTORE_URL: 'esdb://eventstore:2113?tls=false',
    KAFKA_BROKERS: 'kafka:9092, kafka2:9092',
    KAFKA_TOPIC_PARTITIONS: '12',
    MONGODB_URL: 'mongodb://mongo:27017/kbqa?replicaSet=rs0',
    PINECONE_API_KEY: 'pc-key',
    PINECONE_INDEX: 'kbqa',
    OPENAI_API_KEY: '',
    KBQA_OPENAI_CHAT_MODELS: '',
  });
  t.deepEqual(config.distributed, {
    eventStore: { url: 'esdb://eventstore:2113?tls=false' },
    kafka: { brokers: ['kafka:9092', 'kafka2:9092'], clientId: 'kbqa', partitions: 12, replicationFactor: 1, namespace: '', client: 'auto' },
    mongo: { url: 'mongodb://mongo:27017/kbqa?replicaSet=rs0' },
    pinecone: { apiKey: 'pc-key', index: 'kbqa', host: undefined },
  });
  t.is(config.openai, null);
});

test('a malformed engine variable is named', (t) => {
  t.throws(() => loadConfig({ KAFKA_BROKERS: 'kafka' }), { message: /KAFKA_BROKERS: a comma-separated list of host:port/ });
  t.throws(() => loadConfig({ MONGODB_URL: 'http://mongo' }), { message: /MONGODB_URL: a mongodb:\/\// });
  t.throws(() => loadConfig({ PINECONE_API_KEY: 'k' }), { message: /PINECONE_API_KEY and PINECONE_INDEX go together/ });
});

test('KBQA_CORS_ORIGINS: off when unset; origins as browsers send them; * for any; anything else is named', (t) => {
  t.deepEqual(loadConfig({}).corsOrigins, []);
  t.deepEqual(loadConfig({ KBQA_CORS_ORIGINS: '' }).corsOrigins, []);
  t.deepEqual(loadConfig({ KBQA_CORS_ORIGINS: 'https://App.Example.com/, http://localhost:5173,https://x.example:443' }).corsOrigins, [
    'https://app.example.com',
    'http://localhost:5173',
    'https://x.example',
  ]);
  t.deepEqual(loadConfig({ KBQA_CORS_ORIGINS: '*' }).corsOrigins, ['*']);
  for (const bad of ['app.example.com', 'https://app.example.com/path', 'https://a.example, ,https://b.example']) {
    t.throws(() => loadConfig({ KBQA_CORS_ORIGINS: bad }), { message: /KBQA_CORS_ORIGINS/ }, bad);
  }
});

test('limits on slow clients and load shedding: defaults, overrides, and nonsense named', (t) => {
  const defaults = loadConfig({});
  t.deepEqual(defaults.server, { headersTimeoutMs: 10_000, body: { baseMs: 10_000, minBytesPerSecond: 16 * 1024 }, keepAliveTimeoutMs: 5_000, maxConnections: 1000 });
  t.deepEqual(defaults.load, { query: { concurrency: 32, queue: 32 }, run: { concurrency: 8, queue: 16 }, landing: { concurrency: 16, queue: 16, perPartition: 8 }, queueWaitMs: 1000, startsPerTurn: 2 });
  t.is(defaults.trustProxy, 1);
  t.deepEqual(defaults.landing, { messagesPerMinute: 20, codeFailuresPerMinute: 10 });
  const set = loadConfig({ KBQA_HEADERS_TIMEOUT_S: '3', KBQA_BODY_MIN_RATE_KBPS: '64', KBQA_MAX_CONNECTIONS: '0', KBQA_QUERY_CONCURRENCY: '0', KBQA_QUERY_QUEUE: '0' });
  t.is(set.server.headersTimeoutMs, 3000);
  t.is(set.server.body.minBytesPerSecond, 65_536);
  t.is(set.server.maxConnections, 0);
  t.deepEqual(set.load.query, { concurrency: 0, queue: 0 });
  t.throws(() => loadConfig({ KBQA_HEADERS_TIMEOUT_S: '0' }), { message: /KBQA_HEADERS_TIMEOUT_S/ });
  t.throws(() => loadConfig({ KBQA_LOAD_STARTS_PER_TURN: '0' }), { message: /KBQA_LOAD_STARTS_PER_TURN/ });
});

test('KBQA_INDEX_MEMORY_MB: megabytes, 0 for no limit; by default an eighth of the machine, never under 64 MB', async (t) => {
  const { totalmem } = await import('node:os');
  t.is(loadConfig({ KBQA_INDEX_MEMORY_MB: '300' }).indexMemoryBytes, 300 * 1024 * 1024);
  t.is(loadConfig({ KBQA_INDEX_MEMORY_MB: '0' }).indexMemoryBytes, 0);
  const byDefault = loadConfig({}).indexMemoryBytes;
  t.true(byDefault >= 64 * 1024 * 1024 && byDefault <= Math.max(64 * 1024 * 1024, totalmem() / 8), `${byDefault}`);
  t.throws(() => loadConfig({ KBQA_INDEX_MEMORY_MB: '-1' }), { message: /KBQA_INDEX_MEMORY_MB/ });
  t.throws(() => loadConfig({ KBQA_INDEX_MEMORY_MB: 'lots' }), { message: /KBQA_INDEX_MEMORY_MB/ });
});
