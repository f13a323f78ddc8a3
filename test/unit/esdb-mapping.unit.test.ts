import test from 'ava';
import {
  ANY,
  AccessDeniedError,
  type AllStreamSubscription,
  MaxAppendSizeExceededError,
  NO_STREAM,
  type Position,
  type ResolvedEvent,
  START,
  STREAM_EXISTS,
  StreamDeletedError,
  UnavailableError,
  WrongExpectedVersionError,
  convertToCommandError,
} from '@eventstore/db-client';
import { convertGrpcEvent } from '@eventstore/db-client/dist/utils/convertGrpcEvent.js';
import sharedPb from '@eventstore/db-client/generated/shared_pb.js';
import streamsPb from '@eventstore/db-client/generated/streams_pb.js';
import {
  ESDB_NO_POSITION,
  checkpointHolds,
  classifyError,
  eventTypeRegex,
  fromCurrentRevision,
  knownCommit,
  readThroughAfterProbe,
  subscriptionFilter,
  toEsdbExpectedRevision,
  toEsdbPosition,
  toEventData,
  toRecordedEvent,
  toStoreError,
} from '../../src/adapters/esdb/mapping.ts';
import { PermanentError } from '../../src/lib/retry.ts';
import { ConcurrencyError } from '../../src/ports/event-store.ts';

type WireEvent = {
  streamId?: string;
  type?: string;
  contentType?: string;
  data?: unknown;
  metadata?: unknown;
  /** What the server writes into the event's position fields. */
  position?: bigint;
  /** The read's own commit position ($all reads); absent on stream reads. */
  readPosition?: bigint;
};

const created = new Date('2024-05-06T07:08:09.123Z');
const id = '6c3c2a57-9a0e-4a39-9d36-5a1f0c1b2d3e';

/** An event as the server sends it over gRPC, turned into a ResolvedEvent by the client's own converter. */
function fromWire({ streamId = 'kb_1', type = 'KnowledgeBaseCreated', contentType = 'application/json', data = { name: 'x' }, metadata, position = 4242n, readPosition }: WireEvent): ResolvedEvent {
  const uuid = new sharedPb.UUID();
  uuid.setString(id);
  const stream = new sharedPb.StreamIdentifier();
  stream.setStreamName(Buffer.from(streamId));
  const recorded = new streamsPb.ReadResp.ReadEvent.RecordedEvent();
  recorded.setId(uuid);
  recorded.setStreamIdentifier(stream);
  recorded.setStreamRevision('3');
  recorded.setCommitPosition(String(position));
  recorded.setPreparePosition(String(position));
  // "created" travels as .NET ticks (100 ns) since the Unix epoch.
  recorded.getMetadataMap().set('type', type).set('content-type', contentType).set('created', String(BigInt(created.getTime()) * 10_000n));
  recorded.setData(Buffer.from(typeof data === 'string' ? data : JSON.stringify(data)));
  if (metadata !== undefined) recorded.setCustomMetadata(metadata instanceof Uint8Array ? metadata : Buffer.from(JSON.stringify(metadata)));
  const read = new streamsPb.ReadResp.ReadEvent();
  read.setEvent(recorded);
  if (readPosition === undefined) read.setNoPosition(new sharedPb.Empty());
  else read.setCommitPosition(String(readPosition));
  return convertGrpcEvent(read);
}

/** A gRPC ServiceError as @grpc/grpc-js raises it; the client reads only code, details and metadata.getMap(). */
const rawServiceError = (code: number, details: string, map: Record<string, string> = {}) =>
  Object.assign(new Error(`${code} ${details}`), { code, details, metadata: { getMap: () => map } });
/** The same after the client converted it, as most calls throw it. */
const serviceError = (code: number, details: string, map: Record<string, string> = {}) => convertToCommandError(rawServiceError(code, details, map));

test('an event read from a stream becomes a RecordedEvent: data, metadata, revision, position, recordedAt', (t) => {
  const metadata = { schemaVersion: 2, correlationId: 'c-1', actor: 'key_1' };
  t.deepEqual(toRecordedEvent(fromWire({ data: { name: 'x', nested: [1, { ok: true }] }, metadata })), {
    id,
    type: 'KnowledgeBaseCreated',
    streamId: 'kb_1',
    revision: 3,
    position: 4242n,
    data: { name: 'x', nested: [1, { ok: true }] },
    metadata,
    recordedAt: '2024-05-06T07:08:09.123Z',
  });
});

test('an event read from $all takes the read position when the event carries none', (t) => {
  const event = toRecordedEvent(fromWire({ metadata: { schemaVersion: 1 }, position: ESDB_NO_POSITION, readPosition: 777n }));
  t.is(event?.position, 777n);
});

test('a stream read from a server before 22.6 (no $all position) is refused, not given a made-up position', (t) => {
  const error = t.throws(() => toRecordedEvent(fromWire({ metadata: { schemaVersion: 1 }, position: ESDB_NO_POSITION })));
  t.true(error instanceof PermanentError);
  t.regex(error!.message, /22\.6/);
});

test('what is not ours reads as null: system events and streams, binary events, JSON without schemaVersion', (t) => {
  const ours = { metadata: { schemaVersion: 1 } };
  t.not(toRecordedEvent(fromWire(ours)), null);
  t.is(toRecordedEvent(fromWire({ ...ours, type: '$>' })), null);
  t.is(toRecordedEvent(fromWire({ ...ours, streamId: '$settings' })), null);
  t.is(toRecordedEvent(fromWire({ ...ours, contentType: 'application/octet-stream' })), null);
  t.is(toRecordedEvent(fromWire({ metadata: { correlationId: 'x' } })), null);
  t.is(toRecordedEvent(fromWire({})), null);
  t.is(toRecordedEvent(fromWire({ metadata: new Uint8Array([1, 2, 3]) })), null);
});

test('a new event goes out as JSON with our id and metadata', (t) => {
  const event = { id, type: 'A', data: { n: 1 }, metadata: { schemaVersion: 1, correlationId: 'c' } };
  t.deepEqual(toEventData(event), { id, contentType: 'application/json', type: 'A', data: { n: 1 }, metadata: { schemaVersion: 1, correlationId: 'c' } });
});

test('expected revisions map to the client constants and bigint revisions', (t) => {
  t.is(toEsdbExpectedRevision('any'), ANY);
  t.is(toEsdbExpectedRevision('no_stream'), NO_STREAM);
  t.is(toEsdbExpectedRevision('stream_exists'), STREAM_EXISTS);
  t.is(toEsdbExpectedRevision(0), 0n);
  t.is(toEsdbExpectedRevision(41), 41n);
  t.throws(() => toEsdbExpectedRevision(-1), { instanceOf: RangeError });
  t.throws(() => toEsdbExpectedRevision(1.5), { instanceOf: RangeError });
  t.is(fromCurrentRevision(NO_STREAM), 'no_stream');
  t.is(fromCurrentRevision(-1n), 'no_stream');
  t.is(fromCurrentRevision(7n), 7);
});

test('positions: 0n is the start of $all, others are commit = prepare; unset and max mean unknown', (t) => {
  t.is(toEsdbPosition(0n), START);
  t.deepEqual(toEsdbPosition(1234n), { commit: 1234n, prepare: 1234n });
  t.is(knownCommit(undefined), undefined);
  t.is(knownCommit({ commit: 0n, prepare: 0n }), undefined);
  t.is(knownCommit({ commit: ESDB_NO_POSITION, prepare: ESDB_NO_POSITION }), undefined);
  t.is(knownCommit({ commit: 99n, prepare: 98n }), 99n);
  t.is(knownCommit(55n), 55n);
});

test('a wrong expected version, from a batch append or a plain append, becomes ConcurrencyError', (t) => {
  const details = new sharedPb.WrongExpectedVersion();
  details.setExpectedStreamPosition('0');
  details.setCurrentStreamRevision('3');
  const fromBatch = WrongExpectedVersionError.fromWrongExpectedVersion(details, 'kb_1');
  const fromAppend = serviceError(9, 'wrong expected version', { exception: 'wrong-expected-version', 'stream-name': 'kb_1', 'expected-version': '0' });
  t.is(classifyError(fromBatch), 'concurrency');
  t.is(classifyError(fromAppend), 'concurrency');

  const conflict = toStoreError(fromBatch, { streamId: 'kb_1', expected: 0 });
  t.true(conflict instanceof ConcurrencyError);
  t.like(conflict as ConcurrencyError, { streamId: 'kb_1', expected: 0, actual: 3 });
  t.like(toStoreError(fromAppend, { streamId: 'kb_1', expected: 'stream_exists' }) as ConcurrencyError, { expected: 'stream_exists', actual: 'no_stream' });
});

test('errors a retry may cure are transient; the rest are permanent and reach callers as PermanentError', (t) => {
  t.is(classifyError(serviceError(14, 'No connection established')), 'transient');
  t.is(classifyError(serviceError(4, 'Deadline exceeded')), 'transient');
  t.is(classifyError(serviceError(10, 'Operation timed out')), 'transient');
  t.is(classifyError(serviceError(2, 'something broke')), 'transient');
  t.is(classifyError(serviceError(5, 'Leader info available', { exception: 'not-leader', 'leader-endpoint-host': 'node2', 'leader-endpoint-port': '2113' })), 'transient');
  t.is(classifyError(new Error('Failed to discover after 10 attempts')), 'transient');

  const denied = serviceError(7, 'Access denied', { exception: 'access-denied' });
  t.true(denied instanceof AccessDeniedError);
  for (const error of [denied, StreamDeletedError.fromStreamName('kb_1'), MaxAppendSizeExceededError.fromMaxAppendSize(1_048_576)]) {
    t.is(classifyError(error), 'permanent');
    const surfaced = toStoreError(error);
    t.true(surfaced instanceof PermanentError);
    t.is((surfaced as Error).cause, error);
  }
  const unavailable = serviceError(14, 'No connection established');
  t.is(toStoreError(unavailable), unavailable);
});

test('a raw gRPC error (some calls reject with one) is classified and surfaced as the client would convert it', (t) => {
  const raw = rawServiceError(14, 'No connection established');
  t.is(classifyError(raw), 'transient');
  t.true(toStoreError(raw) instanceof UnavailableError);
  t.is(classifyError(rawServiceError(16, 'Unauthenticated')), 'permanent');
  // Not every error with a numeric code is a gRPC one.
  const other = Object.assign(new Error('odd'), { code: 3 });
  t.is(classifyError(other), 'transient');
  t.is(toStoreError(other), other);
});

test('the type filter regex matches exactly the listed types, whatever characters they hold', (t) => {
  t.is(eventTypeRegex(['B', 'A']), '^(?:A|B)$');
  const types = ['DocumentUploaded', 'Doc.Parsed', 'a|b', 'x$', 'Ünïcode (v2)'];
  const regex = new RegExp(eventTypeRegex(types));
  for (const type of types) t.true(regex.test(type), type);
  for (const other of ['DocumentUploadedX', 'XDocumentUploaded', 'DocXParsed', 'a', 'b', 'x', 'Ünïcode v2', '']) t.false(regex.test(other), other);
});

test('the subscription filter: exactly the types when given, otherwise everything but system events; checkpoints at every window', (t) => {
  const onCheckpoint = (_s: AllStreamSubscription, _p: Position) => {};
  t.like(subscriptionFilter(new Set(['A']), onCheckpoint), { filterOn: 'eventType', regex: '^(?:A)$', checkpointInterval: 1, checkpointReached: onCheckpoint });
  const all = subscriptionFilter(undefined, onCheckpoint);
  t.like(all, { filterOn: 'eventType', checkpointInterval: 1, checkpointReached: onCheckpoint });
  const regex = new RegExp((all as { regex: string }).regex);
  t.true(regex.test('DocumentUploaded'));
  t.false(regex.test('$>'));
});

test('an idle probe reads through to just before the first event the subscription will deliver', (t) => {
  const seen = (...rows: [number, boolean][]) => rows.map(([p, wanted]) => ({ position: BigInt(p), wanted }));
  t.is(readThroughAfterProbe(10n, []), 10n);
  t.is(readThroughAfterProbe(10n, seen([10, false], [20, false], [30, false])), 30n);
  t.is(readThroughAfterProbe(10n, seen([10, true], [20, false], [30, true], [40, false])), 20n);
  t.is(readThroughAfterProbe(10n, seen([20, true], [30, false])), 10n);
});

test('a server checkpoint counts only when an event sits exactly there and the subscription does not deliver it', (t) => {
  t.true(checkpointHolds(500n, { position: 500n, wanted: false }));
  t.false(checkpointHolds(500n, { position: 500n, wanted: true }), 'that event is still to be delivered');
  t.false(checkpointHolds(500n, { position: 620n, wanted: false }), 'no event there: the next append may land on it');
  t.false(checkpointHolds(500n, undefined), 'the end of the log');
});
