import test from 'ava';
import { DEAD_LETTER_HEADER, DeadLetterMessage, HEADER } from '../../schemas/topics.ts';
import { decodeEvent, encodeDeadLetter, encodeEvent, encodeUnreadableDeadLetter, eventTypeOf, type IncomingMessage, type OutgoingMessage } from '../../src/adapters/kafka/messages.ts';
import { chunkBySize } from '../../src/adapters/kafka/producer.ts';
import { CONTRACT_TOPICS } from '../../src/adapters/kafka/topics.ts';
import { PermanentError } from '../../src/lib/retry.ts';
import type { RecordedEvent } from '../../src/ports/event-store.ts';

const event: RecordedEvent = {
  id: 'evt-1',
  type: 'DocumentUploaded',
  streamId: 'document-doc_01-a',
  revision: 3,
  position: 9_007_199_254_740_993n,
  data: {
    document_id: 'doc_01-a',
    knowledge_base_id: 'kb_1',
    workspace_id: 'w',
    name: 'ünïcode.pdf',
    media_type: 'application/pdf',
    size_bytes: 1234,
    sha256: 'a'.repeat(64),
    metadata: { lang: 'fr' },
    chunking: { max_tokens: 512, overlap_tokens: 64 },
    uploaded_at: '2025-01-02T03:04:05.000Z',
  },
  metadata: { schemaVersion: 1, correlationId: 'c-1', actor: 'api' },
  recordedAt: '2025-01-02T03:04:05.000Z',
};

/** What a kafkajs consumer hands over for a message the relay produced: key, value and headers as bytes. */
const received = (m: OutgoingMessage, offset = '42'): IncomingMessage => ({
  key: Buffer.from(m.key),
  value: Buffer.from(m.value),
  offset,
  headers: Object.fromEntries(Object.entries(m.headers).map(([k, v]) => [k, Buffer.from(v)])),
});

test('an event goes to its stream category topic, keyed by stream id, with string headers', (t) => {
  const m = encodeEvent(event, CONTRACT_TOPICS.ofStream(event.streamId));
  t.is(m.topic, 'kbqa.document');
  t.is(m.key, 'document-doc_01-a');
  t.deepEqual(m.headers, { [HEADER.eventType]: 'DocumentUploaded', [HEADER.eventId]: 'evt-1', [HEADER.schemaVersion]: '1', [HEADER.documentVersion]: '1' });
  // A later version's events say which (issue 44); a supersede names the version that now answers.
  const parsed: RecordedEvent = { ...event, type: 'DocumentParsingStarted', data: { document_id: 'doc_01-a', knowledge_base_id: 'kb_1', version: 2, attempt: 2, started_at: event.recordedAt } };
  t.is(encodeEvent(parsed, CONTRACT_TOPICS.ofStream(event.streamId)).headers[HEADER.documentVersion], '2');
  const superseded: RecordedEvent = { ...event, type: 'DocumentVersionSuperseded', data: { document_id: 'doc_01-a', knowledge_base_id: 'kb_1', version: 2, superseded_by: 3, superseded_at: event.recordedAt } };
  t.is(encodeEvent(superseded, CONTRACT_TOPICS.ofStream(event.streamId)).headers[HEADER.documentVersion], '3');
  t.is(JSON.parse(m.value).position, '9007199254740993', 'the position as a decimal string, exact beyond 2^53');
});

test('a message decodes back to the very event, bigint position included', (t) => {
  const m = received(encodeEvent(event, 'kbqa.document'));
  t.deepEqual(decodeEvent(m), event);
  t.is(eventTypeOf(m), 'DocumentUploaded');
});

test('malformed messages are permanent errors that say what is wrong', (t) => {
  const good = received(encodeEvent(event, 'kbqa.document'));
  const value = JSON.parse(good.value!.toString());
  const cases: [string, IncomingMessage, RegExp][] = [
    ['no value', { ...good, value: null }, /no value/],
    ['not JSON', { ...good, value: Buffer.from('{nope') }, /not JSON/],
    ['off schema', { ...good, value: Buffer.from(JSON.stringify({ ...value, position: -1 })) }, /not an EventMessage.*position/],
    ['data not an object', { ...good, value: Buffer.from(JSON.stringify({ ...value, data: 'x' })) }, /data/],
    ['data off its type\'s schema', { ...good, value: Buffer.from(JSON.stringify({ ...value, data: { ...value.data, size_bytes: -1 } })) }, /not a DocumentUploaded.*size_bytes/],
    ['data with a field its type does not have', { ...good, value: Buffer.from(JSON.stringify({ ...value, data: { ...value.data, extra: 1 } })) }, /not a DocumentUploaded/],
    [
      'a type the catalog does not know',
      { ...good, value: Buffer.from(JSON.stringify({ ...value, type: 'DocumentShredded' })), headers: { ...good.headers, [HEADER.eventType]: Buffer.from('DocumentShredded') } },
      /'DocumentShredded' is not in the catalog/,
    ],
    ['type header disagrees', { ...good, headers: { ...good.headers, [HEADER.eventType]: Buffer.from('Other') } }, /kbqa-event-type is 'Other'/],
    ['id header missing', { ...good, headers: { ...good.headers, [HEADER.eventId]: undefined } }, /kbqa-event-id is missing/],
    ['version header repeated with two values', { ...good, headers: { ...good.headers, [HEADER.schemaVersion]: ['1', '2'] } }, /kbqa-schema-version/],
    ['key is not the stream', { ...good, key: Buffer.from('document-other') }, /key/],
    ['no key', { ...good, key: null }, /key/],
  ];
  for (const [name, message, why] of cases) {
    const error = t.throws(() => decodeEvent(message), { instanceOf: PermanentError }, name);
    t.regex(error!.message, why, name);
    t.regex(error!.message, /offset 42/, name);
  }
});

test('a dead letter carries the event, where it came from and why, on the dead-letter topic', (t) => {
  const m = encodeDeadLetter({ group: 'indexer', topic: 'kbqa.document', partition: 2, offset: '17', error: 'PermanentError: bad', parkedAt: '2025-01-02T03:04:06.000Z', event }, CONTRACT_TOPICS.deadLetter);
  t.is(m.topic, 'kbqa.dead-letter');
  t.is(m.key, event.streamId);
  t.is(m.headers[HEADER.eventType], 'DocumentUploaded');
  const value = DeadLetterMessage.parse(JSON.parse(m.value));
  t.like(value, { group: 'indexer', partition: 2, offset: '17', error: 'PermanentError: bad' });
  t.is(value.event?.position, '9007199254740993');
  t.is(value.raw, undefined);
});

const source = { group: 'indexer', topic: 'kbqa.document', partition: 2, offset: '17', error: 'PermanentError: unreadable', parkedAt: '2025-01-02T03:04:06.000Z' };

test('an unreadable message is dead-lettered as it was: its key, its headers plus the error, its bytes in base64', (t) => {
  const bytes = Buffer.from([0x7b, 0xff, 0x00, 0x80]);
  const original: IncomingMessage = { key: Buffer.from('document-doc_01-a'), value: bytes, offset: '17', headers: { [HEADER.eventType]: Buffer.from('DocumentUploaded'), [HEADER.eventId]: ['a', 'b'] } };
  const m = encodeUnreadableDeadLetter(source, original, CONTRACT_TOPICS.deadLetter);
  t.is(m.topic, 'kbqa.dead-letter');
  t.is(m.key, 'document-doc_01-a');
  t.deepEqual(m.headers, { [HEADER.eventType]: 'DocumentUploaded', [HEADER.eventId]: 'b', [DEAD_LETTER_HEADER.error]: 'PermanentError: unreadable' });
  const value = DeadLetterMessage.parse(JSON.parse(m.value));
  t.like(value, source);
  t.is(value.event, undefined);
  t.deepEqual(value.raw, { key: 'document-doc_01-a', value: bytes.toString('base64'), headers: { [HEADER.eventType]: 'DocumentUploaded', [HEADER.eventId]: 'b' } });
  t.deepEqual(Buffer.from(value.raw!.value!, 'base64'), bytes);
});

test('an unreadable message without key, value or headers is dead-lettered with nulls', (t) => {
  const m = encodeUnreadableDeadLetter(source, { key: null, value: null, offset: '17' }, CONTRACT_TOPICS.deadLetter);
  t.is(m.key, '', 'the publisher takes a string key');
  t.deepEqual(m.headers, { [DEAD_LETTER_HEADER.error]: 'PermanentError: unreadable' });
  t.deepEqual(DeadLetterMessage.parse(JSON.parse(m.value)).raw, { key: null, value: null, headers: {} });
});

test('a dead letter carries exactly one of the event and the raw message', (t) => {
  const eventMessage = JSON.parse(encodeEvent(event, 'kbqa.document').value);
  const raw = { key: 'k', value: 'e2Jyb2tlbg==', headers: {} };
  t.true(DeadLetterMessage.safeParse({ ...source, event: eventMessage }).success, 'the event');
  t.true(DeadLetterMessage.safeParse({ ...source, raw }).success, 'the raw message');
  t.false(DeadLetterMessage.safeParse({ ...source, event: eventMessage, raw }).success, 'both');
  t.false(DeadLetterMessage.safeParse(source).success, 'neither');
  t.false(DeadLetterMessage.safeParse({ ...source, raw: { ...raw, value: 'not base64!' } }).success, 'a value that is not base64');
});

test('a publish is cut into requests under the size limit, in order, a large message alone', (t) => {
  const m = (key: string, bytes: number): OutgoingMessage => ({ topic: 't', key, value: 'x'.repeat(bytes), headers: {} });
  const messages = [m('a', 399), m('b', 399), m('c', 399), m('d', 2000), m('e', 10)];
  const chunks = chunkBySize(messages, 1000);
  t.deepEqual(chunks.map((c) => c.map((x) => x.key)), [['a', 'b'], ['c'], ['d'], ['e']]);
  t.deepEqual(chunkBySize([], 1000), []);
});
