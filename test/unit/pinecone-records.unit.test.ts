import { Errors } from '@pinecone-database/pinecone';
import test from 'ava';
import {
  bestMatches,
  checkIndex,
  classifyPineconeError,
  decodeRecordId,
  documentFilters,
  documentPrefix,
  encodeRecordId,
  inBatches,
  isNotFound,
  lastPerChunk,
  safeBatchSize,
  toPineconeRecord,
  vectorProblem,
} from '../../src/adapters/pinecone/records.ts';

/** The SDK's own error for an HTTP status: statuses it does not name are thrown rather than returned. */
const httpError = (status: number): Error => {
  try {
    return Errors.mapHttpStatusError({ status, url: 'https://index.svc.pinecone.io/query', message: 'nope' });
  } catch (error) {
    return error as Error;
  }
};

test('record ids: document then chunk, round trip, and a prefix that is only its own document’s', (t) => {
  t.is(encodeRecordId('doc_01h', 'chk_ab'), 'doc_01h#chk_ab');
  for (const [documentId, chunkId] of [['a#b', 'c#d'], ['100%', '%23'], ['café 🦊', 'ß'], ['\u0000x', '']]) {
    const id = encodeRecordId(documentId!, chunkId!);
    t.regex(id, /^[\x20-\x7e]+$/, 'printable ASCII only');
    t.deepEqual(decodeRecordId(id), { documentId, chunkId });
  }
  const ofA = documentPrefix('a');
  t.true(encodeRecordId('a', 'c1').startsWith(ofA));
  t.false(encodeRecordId('a#b', 'c1').startsWith(ofA));
  t.false(encodeRecordId('ab', 'c1').startsWith(ofA));
  t.is(decodeRecordId('written-by-someone-else'), undefined);
  t.is(decodeRecordId('bad%zz#c'), undefined);
});

test('a record carries its document as metadata and its vector as plain numbers', (t) => {
  t.deepEqual(toPineconeRecord({ id: 'c1', documentId: 'd1', values: Float32Array.of(0.5, -1) }), {
    id: 'd1#c1',
    values: [0.5, -1],
    metadata: { document_id: 'd1' },
  });
});

test('upsert batches: at most 1000 records and well under 2 MB whatever the values', (t) => {
  t.true(safeBatchSize(4) > 500 && safeBatchSize(4) <= 1000);
  for (const dimension of [384, 1536, 3072, 20_000]) {
    const size = safeBatchSize(dimension);
    t.true(size >= 1);
    const worst = { id: 'x'.repeat(512), values: Array(dimension).fill(-0.0000067190399022365455), metadata: { document_id: '"'.repeat(511) } };
    const bytes = JSON.stringify({ vectors: Array(size).fill(worst), namespace: 'n'.repeat(512) }).length;
    t.true(bytes < 1.6e6, `${dimension} dimensions: ${size} records take ${bytes} bytes`);
  }
  t.is(safeBatchSize(1536, 10), 10, 'a smaller batch may be asked for');
  t.is(safeBatchSize(1536, 5000), safeBatchSize(1536), 'a larger one may not');
  t.deepEqual(inBatches([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);
  t.deepEqual(inBatches([], 2), []);
});

test('one record per chunk in an upsert, the last one winning', (t) => {
  const v = Float32Array.of(1);
  const records = lastPerChunk([
    { id: 'a', documentId: 'd1', values: v },
    { id: 'b', documentId: 'd1', values: v },
    { id: 'a', documentId: 'd2', values: v },
  ]);
  t.deepEqual(records.map((r) => [r.id, r.documentId]), [['a', 'd2'], ['b', 'd1']]);
});

test('document filters: $in over distinct ids, split where one $in would be too long', (t) => {
  t.deepEqual(documentFilters(['d1', 'd2', 'd1']), [{ document_id: { $in: ['d1', 'd2'] } }]);
  const many = documentFilters(Array.from({ length: 10_001 }, (_, i) => `d${i}`));
  t.deepEqual(many.map((f) => f.document_id.$in.length), [10_000, 1]);
  t.deepEqual(documentFilters([]), []);
});

test('matches: chunk ids back from record ids, document from metadata, best first across answers', (t) => {
  const answers = [
    [
      { id: 'd1#c1', score: 0.9, metadata: { document_id: 'd1' } },
      { id: 'foreign', score: 0.95 },
      { id: 'd1#c2', score: 0.2 },
    ],
    [{ id: 'd%232#c3', score: 0.5, metadata: { document_id: 'd#2' } }],
  ];
  t.deepEqual(bestMatches(answers, 10), [
    { id: 'c1', documentId: 'd1', score: 0.9 },
    { id: 'c3', documentId: 'd#2', score: 0.5 },
    { id: 'c2', documentId: 'd1', score: 0.2 },
  ]);
  t.deepEqual(bestMatches(answers, 1).map((m) => m.id), ['c1']);
  t.deepEqual(bestMatches([[{ id: 'd1#c1', score: -0.98 }]], 5), [{ id: 'c1', documentId: 'd1', score: -0.98 }], 'negative cosines kept');
});

test('vectors Pinecone would refuse are named with the reason', (t) => {
  t.is(vectorProblem(Float32Array.of(1, 0, 0), 3), undefined);
  t.is(vectorProblem(Float32Array.of(1, 0), 3), 'has 2 dimensions');
  t.regex(vectorProblem(Float32Array.of(1, Number.NaN, 0), 3)!, /finite/);
  t.regex(vectorProblem(Float32Array.of(0, 0, 0), 3)!, /zeros/);
});

test('only a dense cosine index will do', (t) => {
  t.deepEqual(checkIndex({ metric: 'cosine', dimension: 1536, vectorType: 'dense' }), { dimension: 1536 });
  t.regex((checkIndex({ metric: 'dotproduct', dimension: 1536 }) as { problem: string }).problem, /dotproduct metric/);
  t.regex((checkIndex({ metric: 'cosine', vectorType: 'sparse' }) as { problem: string }).problem, /dense/);
});

test('errors: 429, 5xx and lost connections are retriable; other 4xx are permanent', (t) => {
  for (const status of [429, 500, 502, 503, 504, 408]) t.is(classifyPineconeError(httpError(status)), 'retriable', String(status));
  for (const status of [400, 401, 403, 404, 409, 412, 422]) t.is(classifyPineconeError(httpError(status)), 'permanent', String(status));
  t.is(classifyPineconeError(new Errors.PineconeConnectionError(new TypeError('fetch failed'))), 'retriable');
  t.is(classifyPineconeError(new Errors.PineconeMaxRetriesExceededError(3)), 'retriable');
  t.is(classifyPineconeError(new Errors.PineconeArgumentError('topK must be greater than 0')), 'permanent');
  t.is(classifyPineconeError(new TypeError('x is undefined')), 'unknown');
  t.is(classifyPineconeError('a string'), 'unknown');
});

test('not found is told apart from other refusals', (t) => {
  t.true(isNotFound(httpError(404)));
  t.false(isNotFound(httpError(400)));
  t.false(isNotFound(httpError(429)));
  t.false(isNotFound(new Error('Status: 404.')));
});
