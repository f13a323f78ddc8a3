import { randomUUID } from 'node:crypto';
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { type DocumentDoc, documentsProjection, KNOWLEDGE_BASE_TOTALS } from '../projections/documents/index.ts';
import { allProjections } from '../projections/index.ts';
import type { KnowledgeBaseDoc } from '../projections/knowledge-bases/index.ts';
import type { EventData, EventType } from '../schemas/events/index.ts';
import { decodeEvent, encodeEvent, type IncomingMessage } from '../src/adapters/kafka/messages.ts';
import { CONTRACT_TOPICS } from '../src/adapters/kafka/topics.ts';
import { createSqliteCheckpointStore } from '../src/adapters/sqlite/checkpoint-store.ts';
import { openSqlite, type SqliteDatabase } from '../src/adapters/sqlite/database.ts';
import { createSqliteEventStore } from '../src/adapters/sqlite/event-store.ts';
import { createSqliteReadModelStore } from '../src/adapters/sqlite/read-model-store.ts';
import { createIdGenerator } from '../src/app/ids.ts';
import { STREAM_POSITIONS } from '../src/app/projection-watch.ts';
import { PROJECTOR_GROUP } from '../src/app/projector.ts';
import { replayReadModels } from '../src/app/replay.ts';
import { withTotals } from '../src/app/services/knowledge-base-totals.ts';
import type { RecordedEvent } from '../src/ports/event-store.ts';
import type { ReadModelWrite } from '../src/ports/read-models.ts';
import { assertValid, kbCreated, kbUpdated, newEvent } from './fixtures.ts';
import { buildLog } from './replay.bench.ts';
import { latencySummary, log, round, seededRandom, timed, withTempDir } from './util.ts';

/** The CPU the distributed profile (Kafka bus, per-stream positions, knowledge-base totals kept apart) adds, with no broker. */

const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();

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

const STREAMS_RATIO_TARGET = 0.7;

/** One replay into empty read models, on its own copy of the log; checks what it wrote. */
async function replayCopy(logPath: string, copyPath: string, trackStreams: boolean) {
  copyFileSync(logPath, copyPath);
  const db = openSqlite(copyPath);
  try {
    const store = createSqliteEventStore({ db });
    const readModels = createSqliteReadModelStore(db);
    const checkpoints = createSqliteCheckpointStore(db);
    const { result, ms } = await timed(() => replayReadModels({ store, readModels, checkpoints, projections: allProjections, trackStreams }));
    const checkpoint = await checkpoints.load(PROJECTOR_GROUP);
    return { events: result.events, ms, check: { knowledge_bases: await readModels.count('knowledge_bases'), ...streamCheck(db), checkpoint_at_head: checkpoint === result.head } };
  } finally {
    db.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(copyPath + suffix, { force: true });
  }
}

/** Streams in the log, and streams whose recorded position is their last event's. */
function streamCheck(db: SqliteDatabase) {
  const n = (sql: string, ...params: string[]) => (db.prepare(sql).get(...params) as { n: number }).n;
  return {
    streams: n('SELECT count(DISTINCT stream_id) AS n FROM events'),
    stream_positions_exact: n(
      `SELECT count(*) AS n FROM (SELECT stream_id, max(position) AS p FROM events GROUP BY stream_id) e
       JOIN read_models r ON r.collection = ? AND r.id = e.stream_id AND r.position = e.p AND r.data IS NOT NULL`,
      STREAM_POSITIONS,
    ),
  };
}

type ReplayCheck = Awaited<ReturnType<typeof replayCopy>>['check'];

/** Every stream's position is exact with tracking, absent without; both rebuild the same read models. */
const checkPasses = (c: ReplayCheck, track: boolean, reference: ReplayCheck) =>
  c.checkpoint_at_head && c.knowledge_bases === reference.knowledge_bases && c.stream_positions_exact === (track ? c.streams : 0);

export async function projectorStreamsBench() {
  return withTempDir('streams', async (dir) => {
    const logPath = join(dir, 'log.db');
    const db = openSqlite(logPath);
    let built: Awaited<ReturnType<typeof buildLog>>;
    try {
      createSqliteReadModelStore(db);
      log('projector_streams: building the 100,000-event log of the replay bench');
      built = await buildLog(createSqliteEventStore({ db }));
      db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      db.close();
    }
    // Three rounds in alternating orders, so neither mode gains from running warmer; the fastest run of each mode counts.
    const runs: { trackStreams: boolean; events_per_s: number; check: ReplayCheck }[] = [];
    for (const trackStreams of [false, true, true, false, false, true]) {
      const run = await replayCopy(logPath, join(dir, `copy-${runs.length}.db`), trackStreams);
      if (run.events !== built.events) throw new Error(`replayed ${run.events} events of ${built.events}`);
      runs.push({ trackStreams, events_per_s: round(run.events / (run.ms / 1000)), check: run.check });
      log(`projector_streams: ${JSON.stringify(runs.at(-1))}`);
    }
    const best = (track: boolean) => Math.max(...runs.filter((r) => r.trackStreams === track).map((r) => r.events_per_s));
    const ratio = round(best(true) / best(false), 3);
    const checksPass = runs.every((r) => checkPasses(r.check, r.trackStreams, runs[0]!.check));
    return {
      events: built.events,
      read_models: 'empty at the start of each replay (a fresh copy of the log database)',
      without_streams_events_per_s: best(false),
      with_streams_events_per_s: best(true),
      ratio,
      runs: runs.map(({ trackStreams, events_per_s }) => ({ trackStreams, events_per_s })),
      checks: { with_streams: runs.find((r) => r.trackStreams)!.check, without_streams: runs[0]!.check, all_runs_pass: checksPass },
      target: { ratio_at_least: STREAMS_RATIO_TARGET },
      pass: checksPass && ratio >= STREAMS_RATIO_TARGET,
    };
  });
}

const CALLS = 200;
const BACKGROUND = { knowledge_bases: 100, documents_each: 100 };
const TOTALS_TARGET_P50_MS = 5;
const STATUSES: readonly [DocumentDoc['status'], number][] = [['ready', 0.85], ['failed', 0.05], ['indexing', 0.04], ['parsing', 0.03], ['queued', 0.03]];

function documentDoc(id: string, kbId: string, n: number, random: () => number): DocumentDoc {
  let r = random();
  const status = STATUSES.find(([, share]) => (r -= share) < 0)?.[0] ?? 'ready';
  const parsed = status === 'ready' || status === 'indexing';
  const time = at(n);
  return {
    id, object: 'document', workspace_id: 'default', knowledge_base_id: kbId, name: `document-${n}.pdf`, media_type: 'application/pdf',
    size_bytes: Math.floor(random() * 5e6), sha256: '5e'.repeat(32), status, metadata: { source: 'bench', year: 2025 },
    chunking: { max_tokens: 512, overlap_tokens: 64 }, page_count: parsed ? 1 + Math.floor(random() * 40) : null,
    chunk_count: parsed ? 1 + Math.floor(random() * 200) : null, ocr_pages: [], warnings: [],
    error: status === 'failed' ? { stage: 'parsing', code: 'unreadable', message: 'the file is not a PDF' } : null,
    timings: {
      parse_ms: parsed ? 120 : null, index_ms: status === 'ready' ? 340 : null,
      parsing_started_at: time, parsed_at: parsed ? time : null, indexed_at: status === 'ready' ? time : null,
    },
    created_at: time, updated_at: time,
  };
}

const kbDoc = (id: string, i: number): KnowledgeBaseDoc => {
  const { knowledge_base_id, ...rest } = kbCreated(id, 'default', i, at(i));
  return { id: knowledge_base_id, object: 'knowledge_base', ...rest, updated_at: rest.created_at, revision: 0 };
};

export async function kbTotalsBench() {
  return withTempDir('totals', async (dir) => {
    const db = openSqlite(join(dir, 'kbqa.db'));
    try {
      const readModels = createSqliteReadModelStore(db);
      const random = seededRandom(11);
      const newId = createIdGenerator();
      const cases = { one_kb_1000_documents: [1000], one_kb_10000_documents: [10_000], page_of_20_kbs_500_documents_each: Array<number>(20).fill(500) };
      const groups = [...Object.values(cases).flat(), ...Array<number>(BACKGROUND.knowledge_bases).fill(BACKGROUND.documents_each)];
      const kbs = groups.map((_, i) => kbDoc(newId('kb'), i));
      // Documents of all knowledge bases interleaved in time, as uploads arrive.
      const owners = groups.flatMap((documents, k) => Array<number>(documents).fill(k));
      for (let i = owners.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [owners[i], owners[j]] = [owners[j]!, owners[i]!];
      }
      const expected = kbs.map(() => ({ documents: 0, chunks: 0 }));
      let writes: ReadModelWrite[] = [];
      for (const [n, k] of owners.entries()) {
        const doc = documentDoc(newId('doc'), kbs[k]!.id, n, random);
        expected[k]!.documents += 1;
        if (doc.status === 'ready') expected[k]!.chunks += doc.chunk_count ?? 0;
        writes.push({ op: 'put', collection: 'documents', id: doc.id, doc, position: BigInt(n + 1) });
        // What the projection session adds beside each new document (Projection.totals).
        const { id: kbId, fields } = documentsProjection.totals!.contribution(doc);
        writes.push({ op: 'add', collection: KNOWLEDGE_BASE_TOTALS, id: kbId, fields });
        if (writes.length === 5000 || n === owners.length - 1) {
          await readModels.commit(writes);
          writes = [];
        }
      }
      log(`kb_totals: ${owners.length} documents in ${kbs.length} knowledge bases`);
      const results: Record<string, unknown> = {};
      let first = 0;
      let correct = true;
      for (const [name, sizes] of Object.entries(cases)) {
        const page = kbs.slice(first, first + sizes.length);
        const want = expected.slice(first, first + sizes.length);
        first += sizes.length;
        const got = await withTotals(readModels, page);
        correct &&= got.every((kb, i) => kb.document_count === want[i]!.documents && kb.chunk_count === want[i]!.chunks);
        for (let i = 0; i < 10; i++) await withTotals(readModels, page);
        const ms: number[] = [];
        for (let i = 0; i < CALLS; i++) ms.push((await timed(() => withTotals(readModels, page))).ms);
        results[name] = { knowledge_bases: sizes.length, documents: sizes.reduce((a, b) => a + b, 0), calls: CALLS, ...latencySummary(ms) };
        log(`kb_totals: ${name} ${JSON.stringify(results[name])}`);
      }
      const tenThousand = results.one_kb_10000_documents as { p50_ms: number };
      return {
        store: 'sqlite read models (file, WAL)',
        documents_in_store: owners.length,
        background: BACKGROUND,
        ...results,
        totals_correct: correct,
        target: { one_kb_10000_documents_p50_ms_at_most: TOTALS_TARGET_P50_MS },
        pass: correct && tenThousand.p50_ms <= TOTALS_TARGET_P50_MS,
      };
    } finally {
      db.close();
    }
  });
}
