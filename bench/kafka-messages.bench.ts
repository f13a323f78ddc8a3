import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { EventData, EventType } from '../schemas/events/index.ts';
import { decodeEvent, encodeEvent, type IncomingMessage } from '../src/adapters/kafka/messages.ts';
import { CONTRACT_TOPICS } from '../src/adapters/kafka/topics.ts';
import { createIdGenerator } from '../src/app/ids.ts';
import type { RecordedEvent } from '../src/ports/event-store.ts';
import { assertValid, at, kbUpdated, newEvent } from './fixtures.ts';
import { log, round, seededRandom } from './util.ts';

/**
 * What the distributed profile costs in CPU, with no broker: encoding and decoding its Kafka messages.
 */

/** Pseudo-prose from a Zipf-like vocabulary, with the quotes, dashes and line breaks extracted text carries. */
function proseOf(random: () => number) {
  const letters = 'etaoinshrdlcumwfgypbvkjxqz';
  const vocabulary = Array.from({ length: 8000 }, () => Array.from({ length: 2 + Math.floor(random() * 9) }, () => letters[Math.floor(letters.length * random() ** 2)]).join(''));
  const word = () => vocabulary[Math.floor(vocabulary.length * random() ** 3)]!;
  return (words: number) => {
    const out: string[] = [];
    for (let i = 0; i < words; i++) {
      const r = random();
      out.push(r < 0.01 ? `“${word()}”` : r < 0.015 ? `${word()} —` : r < 0.08 ? `${word()}.${random() < 0.2 ? '\n' : ''}` : word());
    }
    return out.join(' ');
  };
}

function recorded<T extends EventType>(type: T, data: EventData<T>, streamId: string, revision: number, position: number): RecordedEvent<T> {
  assertValid(type, data);
  const event = newEvent(type, data, 'key_bench');
  return { ...event, streamId, revision, position: BigInt(position), metadata: { ...event.metadata, correlationId: randomUUID() }, recordedAt: at(position) };
}

const SMALL_PER_KIND = 1000;
const LARGE_EVENTS = 16;
const CHUNKS_PER_EVENT = 64;
const WORDS_PER_CHUNK = 400;
const MEASURE_MS = 1500;
const MESSAGES_TARGET = 20_000;

/** The shapes that make most of the log (uploads, settings updates, workflow steps) and chunk batches. */
function messageEvents() {
  const random = seededRandom(7);
  const prose = proseOf(random);
  const newId = createIdGenerator();
  const hex = () => Array.from({ length: 64 }, () => '0123456789abcdef'[Math.floor(random() * 16)]).join('');
  const small: RecordedEvent[] = [];
  for (let i = 0; i < SMALL_PER_KIND; i++) {
    const [kb, doc, run] = [newId('kb'), newId('doc'), newId('run')];
    small.push(
      recorded('DocumentUploaded', {
        document_id: doc, knowledge_base_id: kb, workspace_id: 'default', name: `Quarterly report ${i}.pdf`, media_type: 'application/pdf',
        size_bytes: Math.floor(random() * 5e6), sha256: hex(), metadata: { source: 'sharepoint', department: `team-${i % 37}`, year: 2025 },
        chunking: { max_tokens: 512, overlap_tokens: 64 }, uploaded_at: at(i),
      }, `document-${doc}`, 0, 3 * i + 1),
      recorded('KnowledgeBaseUpdated', kbUpdated(kb, i, 1 + (i % 9), at(i)), `knowledge_base-${kb}`, 1 + (i % 9), 3 * i + 2),
      recorded('NodeRunSucceeded', {
        run_id: run, node_id: i % 2 ? 'llm' : 'start', elapsed_ms: round(random() * 2000, 1), finished_at: at(i),
        outputs: i % 2 ? { text: prose(60), usage: { prompt_tokens: 1800, completion_tokens: 90 } } : { query: prose(12) },
      }, `workflow_run-${run}`, 2 + (i % 5), 3 * i + 3),
    );
  }
  const large = Array.from({ length: LARGE_EVENTS }, (_, e) => {
    const [kb, doc] = [newId('kb'), newId('doc')];
    let offset = 0;
    const chunks = Array.from({ length: CHUNKS_PER_EVENT }, (_, index) => {
      const text = prose(WORDS_PER_CHUNK);
      offset += text.length;
      const [page, section] = [1 + (index >> 2), `Section ${1 + (index >> 3)}`];
      const tokens = Math.round(WORDS_PER_CHUNK * 1.3);
      return { chunk_id: `chk_${hex().slice(0, 24)}`, index, page, text, heading_path: ['Annual report', section], char_start: offset - text.length, char_end: offset, token_count: tokens };
    });
    const data = { document_id: doc, knowledge_base_id: kb, attempt: 1, batch_index: e % 3, batch_count: 3, chunks };
    return recorded('DocumentChunksExtracted', data, `document_chunks-${doc}-1`, e % 3, 10_000 + e);
  });
  return { small, large };
}

/** Runs `op` over `items` round and round for MEASURE_MS (after one warm-up pass): messages/s and MB/s. */
function rate<T>(items: readonly T[], bytes: readonly number[], op: (item: T) => unknown) {
  items.forEach(op);
  const bytesPerPass = bytes.reduce((a, b) => a + b, 0);
  let passes = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    for (let i = 0; i < items.length; i++) op(items[i]!);
    passes += 1;
    elapsed = performance.now() - start;
  } while (elapsed < MEASURE_MS);
  const seconds = elapsed / 1000;
  return { messages_per_s: round((passes * items.length) / seconds), mb_per_s: round((passes * bytesPerPass) / 1e6 / seconds, 1) };
}

function codecRates(events: readonly RecordedEvent[]) {
  const encoded = events.map((e) => encodeEvent(e, CONTRACT_TOPICS.ofStream(e.streamId)));
  // What kafkajs hands a consumer: key, value and headers as bytes.
  const received: IncomingMessage[] = encoded.map((m, i) => ({
    key: Buffer.from(m.key), value: Buffer.from(m.value), offset: String(i),
    headers: Object.fromEntries(Object.entries(m.headers).map(([k, v]) => [k, Buffer.from(v)])),
  }));
  const bytes = received.map((m) => m.value!.length);
  const roundTrips = received.every((m, i) => isDeepStrictEqual(decodeEvent(m), events[i]));
  const encode = rate(events, bytes, (e) => encodeEvent(e, CONTRACT_TOPICS.ofStream(e.streamId)));
  const decode = rate(received, bytes, decodeEvent);
  // One core doing both for every message (the relay encodes it, a consumer decodes it).
  const both = 1 / (1 / encode.messages_per_s + 1 / decode.messages_per_s);
  const sorted = [...bytes].sort((a, b) => a - b);
  const valueBytes = { min: sorted[0]!, median: sorted[sorted.length >> 1]!, max: sorted.at(-1)! };
  return { messages: events.length, value_bytes: valueBytes, encode, decode, encode_plus_decode_messages_per_s: round(both), round_trips: roundTrips };
}

export async function kafkaMessagesBench() {
  const { small, large } = messageEvents();
  log(`kafka_messages: ${small.length} small events, ${large.length} chunk batches of ${CHUNKS_PER_EVENT} chunks × ${WORDS_PER_CHUNK} words`);
  const smallRates = codecRates(small);
  log(`kafka_messages: small ${JSON.stringify(smallRates)}`);
  const largeRates = codecRates(large);
  log(`kafka_messages: large ${JSON.stringify(largeRates)}`);
  return {
    cores_used: 1,
    small: { kinds: ['DocumentUploaded', 'KnowledgeBaseUpdated', 'NodeRunSucceeded'], ...smallRates },
    large: { kind: 'DocumentChunksExtracted', chunks_per_event: CHUNKS_PER_EVENT, words_per_chunk: WORDS_PER_CHUNK, ...largeRates },
    target: { small_encode_plus_decode_messages_per_s: MESSAGES_TARGET },
    pass: smallRates.round_trips && largeRates.round_trips && smallRates.encode_plus_decode_messages_per_s > MESSAGES_TARGET,
  };
}
