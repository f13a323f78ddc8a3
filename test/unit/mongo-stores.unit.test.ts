import test from 'ava';
import { BSON, type Document, Long } from 'mongodb';
import { trustedEvent } from '../../schemas/events/recorded.ts';
import { asJsonDocument, decodeParked, encodeParked, toBigInt, toLong } from '../../src/adapters/mongo/codec.ts';
import { databaseNameOf, transactionsSupported } from '../../src/adapters/mongo/connection.ts';
import {
  checkpointAdvance,
  collectionNameOf,
  findRequest,
  guardedWrite,
  whereFilter,
  writeBatches,
} from '../../src/adapters/mongo/read-model-queries.ts';
import type { ParkedEvent } from '../../src/ports/event-bus.ts';

/** What the server would receive and send back. */
const overTheWire = (doc: Document) => BSON.deserialize(BSON.serialize(doc));

test('the database comes from the URL path, kbqa when there is none', (t) => {
  t.is(databaseNameOf('mongodb://localhost:27017'), 'kbqa');
  t.is(databaseNameOf('mongodb://localhost:27017/'), 'kbqa');
  t.is(databaseNameOf('mongodb://localhost?directConnection=true'), 'kbqa');
  t.is(databaseNameOf('mongodb://a:27017,b:27017/search?replicaSet=rs0'), 'search');
  t.is(databaseNameOf('mongodb+srv://user:p%40ss@cluster0.example.net/app?retryWrites=true'), 'app');
  t.is(databaseNameOf('mongodb://localhost/my%20db'), 'my db');
});

test('transactions need a replica set or a mongos', (t) => {
  t.true(transactionsSupported({ isWritablePrimary: true, setName: 'rs0' }));
  t.true(transactionsSupported({ isWritablePrimary: true, msg: 'isdbgrid' }));
  t.false(transactionsSupported({ isWritablePrimary: true }));
});

test('positions survive BSON as Int64, beyond 2^53 too', (t) => {
  for (const position of [0n, 1n, 2n ** 53n + 1n, 2n ** 63n - 1n]) {
    const back = overTheWire({ position: toLong(position) }).position;
    t.is(toBigInt(back), position);
  }
  t.is(toBigInt(7), 7n, 'a Long the driver promoted to a number');
  t.is(toBigInt(Long.fromString('9007199254740993')), 9007199254740993n);
  t.throws(() => toLong(-1n), { instanceOf: RangeError });
  t.throws(() => toLong(2n ** 63n), { instanceOf: RangeError });
  t.throws(() => toBigInt('12'), { instanceOf: TypeError });
});

test('documents are stored as JSON carries them; a bigint fails before any write', (t) => {
  t.deepEqual(asJsonDocument({ a: 1, gone: undefined, nested: { b: [1, 'x', null] } }), { a: 1, nested: { b: [1, 'x', null] } });
  t.throws(() => writeBatches([{ op: 'put', collection: 'c', id: 'bad', doc: { n: 1n }, position: 1n }]));
});

test('a guarded write keeps the newer of the stored and the incoming version', (t) => {
  const [stage] = guardedWrite({ op: 'put', collection: 'c', id: 'a', doc: { id: 'a', price: '$5' }, position: 9n });
  const position = Long.fromBigInt(9n);
  t.deepEqual(stage, {
    $set: {
      data: { $cond: [{ $lt: ['$position', position] }, { $literal: { id: 'a', price: '$5' } }, '$data'] },
      position: { $max: ['$position', position] },
    },
  });
  const [tombstone] = guardedWrite({ op: 'delete', collection: 'c', id: 'a', position: 10n });
  t.deepEqual(tombstone!.$set.data.$cond[1], { $literal: null });
  t.deepEqual(checkpointAdvance(4n), [{ $set: { position: { $max: ['$position', Long.fromBigInt(4n)] } } }]);
});

test('writes are batched per collection in their order, as upserts by id', (t) => {
  const batches = writeBatches([
    { op: 'put', collection: 'docs', id: 'a', doc: { v: 1 }, position: 1n },
    { op: 'put', collection: 'kbs', id: 'k', doc: { v: 1 }, position: 2n },
    { op: 'delete', collection: 'docs', id: 'a', position: 3n },
  ]);
  t.deepEqual([...batches.keys()], [collectionNameOf('docs'), collectionNameOf('kbs')]);
  const ops = batches.get('rm_docs')!.map((op) => ('updateOne' in op ? op.updateOne : null));
  t.deepEqual(ops.map((op) => [op?.filter, op?.upsert]), [[{ _id: 'a' }, true], [{ _id: 'a' }, true]]);
  t.is((ops[1]!.update as Document[])[0]!.$set.data.$cond[1].$literal, null);
});

test('find filters live documents by fields and pages by id both ways', (t) => {
  t.deepEqual(whereFilter({ workspace_id: 'w1', active: true, revoked_at: null }), {
    data: { $ne: null },
    'data.workspace_id': 'w1',
    'data.active': true,
    'data.revoked_at': null,
  });
  t.deepEqual(findRequest({ order: 'desc', after: 'a4', limit: 2 }), {
    filter: { data: { $ne: null }, _id: { $lt: 'a4' } },
    options: { sort: { _id: -1 }, projection: { _id: 0, data: 1 }, limit: 2 },
  });
  t.deepEqual(findRequest({ order: 'asc', after: 'a4' })!.filter._id, { $gt: 'a4' });
  t.deepEqual(findRequest({})!.options.sort, { _id: -1 }, 'newest first unless asked otherwise');
  t.false('limit' in findRequest({ limit: -1 })!.options);
  t.is(findRequest({ limit: 0 }), null);
  t.throws(() => whereFilter({ 'data.x': 1 }), { message: /unsupported field/ });
  t.throws(() => whereFilter({ $where: 1 }), { message: /unsupported field/ });
});

test('an add is an upsert that increments fields of data, creating the document at position 0', (t) => {
  const [op] = writeBatches([{ op: 'add', collection: 'totals', id: 'k1', fields: { document_count: 1, chunk_count: -3 } }]).get('rm_totals')!;
  t.deepEqual(op, {
    updateOne: { filter: { _id: 'k1' }, update: { $inc: { 'data.document_count': 1, 'data.chunk_count': -3 }, $setOnInsert: { position: Long.fromBigInt(0n) } }, upsert: true },
  });
  t.throws(() => writeBatches([{ op: 'add', collection: 'totals', id: 'k1', fields: { $where: 1 } }]));
});

test('a parked event comes back exactly as it was parked', (t) => {
  const entry: ParkedEvent = {
    group: 'indexer',
    // Stored as it is, whatever its data: the store neither parses nor checks it.
    event: trustedEvent({
      id: 'e1',
      type: 'DocumentParsed',
      streamId: 'document-d1',
      revision: 3,
      position: 2n ** 60n + 7n,
      data: { document_id: 'd1', pages: [1, 2.5], ok: true, note: null, nested: { deep: ['x'] } },
      metadata: { schemaVersion: 2, correlationId: 'c1', actor: 'key_1' },
      recordedAt: '2026-01-02T03:04:05.678Z',
    }),
    error: 'PermanentError: cannot parse',
    parkedAt: '2026-01-02T03:04:06.000Z',
  };
  const row = encodeParked(entry);
  t.is(row.event.position, '1152921504606846983');
  t.is(row.event_id, 'e1');
  t.deepEqual(decodeParked(overTheWire(row) as typeof row), entry);
});
