import test from 'ava';
import { checkRole, isMixedProfile, parseRole, partsOf } from '../../src/composition/roles.ts';
import type { DistributedConfig } from '../../src/config.ts';

const everything: DistributedConfig = {
  eventStore: { url: 'esdb://es:2113?tls=false' },
  kafka: { brokers: ['kafka:9092'], clientId: 'kbqa', partitions: 6, replicationFactor: 1, namespace: '', client: 'auto' },
  mongo: { url: 'mongodb://mongo/kbqa' },
  pinecone: { apiKey: 'k', index: 'kbqa', host: undefined },
};
const nothing: DistributedConfig = { eventStore: null, kafka: null, mongo: null, pinecone: null };

test('each role runs its part; all runs every part', (t) => {
  t.deepEqual(partsOf('all'), { api: true, relay: true, worker: true, projector: true });
  t.deepEqual(partsOf('api'), { api: true, relay: false, worker: false, projector: false });
  t.deepEqual(partsOf('worker'), { api: false, relay: false, worker: true, projector: false });
  t.deepEqual(partsOf('relay'), { api: false, relay: true, worker: false, projector: false });
  t.deepEqual(partsOf('projector'), { api: false, relay: false, worker: false, projector: true });
});

test('--role accepts the five roles, defaults to all and names the bad value', (t) => {
  t.is(parseRole(undefined), 'all');
  t.is(parseRole('worker'), 'worker');
  t.throws(() => parseRole('workers'), { message: /--role: 'workers' is not one of all, api, relay, worker, projector/ });
});

test('a role apart from the others needs every shared engine; all runs with any mix', (t) => {
  t.notThrows(() => checkRole('all', nothing));
  t.notThrows(() => checkRole('api', everything));
  t.throws(() => checkRole('api', nothing), { message: /needs EVENTSTORE_URL, KAFKA_BROKERS, MONGODB_URL, PINECONE_API_KEY and PINECONE_INDEX/ });
  t.throws(() => checkRole('relay', { ...everything, mongo: null }), { message: /--role relay .* needs MONGODB_URL;/ });
  t.throws(() => checkRole('worker', { ...everything, pinecone: null }), { message: /--role worker .* needs PINECONE_API_KEY and PINECONE_INDEX;/ });
});

test('the mixed profile (KAFKA_BROKERS alone) lets a worker run beside the owner of the data directory; no other role', (t) => {
  const mixed = { ...nothing, kafka: everything.kafka };
  t.true(isMixedProfile(mixed));
  t.false(isMixedProfile(nothing));
  t.false(isMixedProfile({ ...mixed, mongo: everything.mongo }));
  t.notThrows(() => checkRole('worker', mixed));
  t.throws(() => checkRole('api', mixed), { message: /--role api .* needs EVENTSTORE_URL, MONGODB_URL/ });
  t.throws(() => checkRole('worker', nothing), { message: /--role worker needs KAFKA_BROKERS: with it, and the KBQA_DATA_DIR of a running kbqa server/ });
});
