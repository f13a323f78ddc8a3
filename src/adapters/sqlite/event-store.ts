import { EventEmitter } from 'node:events';
import { trustedEvent } from '../../../schemas/events/recorded.ts';
import type { SqliteDatabase } from './database.ts';
import { immediate } from './database.ts';
import {
  ConcurrencyError,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type SubscribeOptions,
} from '../../ports/event-store.ts';
import { type EventRow, RecentRows } from './recent-rows.ts';
import { type LogPage, tailLog } from './tail-log.ts';

type Row = EventRow;

/** Measured idle (docs/benchmarks.md, session 5): a look costs microseconds. */
const POLL_INTERVAL_MS = 50;

/**
 * What this process keeps of its own latest appends for its subscribers (see recent-rows.ts):
 * ingesting SciFact, their queries were a sixth of the server's time.
 */
const RECENT_ROWS = { maxRows: 4096, maxChars: 8 << 20 };

export type SqliteEventStoreOptions = {
  db: SqliteDatabase;
  /**
   * How often a live subscription looks for events appended by another process (a parse worker
   * of the mixed profile, a CLI command beside the server). A look asks SQLite's data_version
   * only, and reads the log when another connection committed.
   */
  pollIntervalMs?: number;
  now?: () => Date;
};

export function createSqliteEventStore({ db, pollIntervalMs = POLL_INTERVAL_MS, now = () => new Date() }: SqliteEventStoreOptions): EventStore {
  db.exec(`
    CREATE TABLE IF NOT EXISTS events (
      position INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      stream_id TEXT NOT NULL,
      revision INTEGER NOT NULL,
      type TEXT NOT NULL,
      data TEXT NOT NULL,
      metadata TEXT NOT NULL,
      recorded_at TEXT NOT NULL,
      UNIQUE (stream_id, revision)
    );`);
  const lastRevision = db.prepare<[string], { r: number | null }>('SELECT max(revision) AS r FROM events WHERE stream_id = ?');
  const insert = db.prepare(
    'INSERT INTO events (id, stream_id, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const byStream = db.prepare<[string], Row>('SELECT * FROM events WHERE stream_id = ? ORDER BY revision');
  const fromPosition = db.prepare<[number, number], Row>('SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?');
  const between = db.prepare<[number, number, number], Row>('SELECT * FROM events WHERE position > ? AND position <= ? ORDER BY position LIMIT ?');
  const head = db.prepare<[], { p: number | null }>('SELECT max(position) AS p FROM events');
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const appended = new EventEmitter().setMaxListeners(0);

  const recent = new RecentRows(RECENT_ROWS);

  const appendTx = (streamId: string, events: NewEvent[], expected: ExpectedRevision, rows: Row[]) =>
    immediate(db, () => {
      const current = lastRevision.get(streamId)?.r ?? null;
      checkExpected(streamId, expected, current);
      const recordedAt = now().toISOString();
      let revision = current ?? -1;
      let position = 0;
      for (const event of events) {
        revision += 1;
        const data = JSON.stringify(event.data);
        const metadata = JSON.stringify(event.metadata);
        const info = insert.run(event.id, streamId, revision, event.type, data, metadata, recordedAt);
        position = Number(info.lastInsertRowid);
        rows.push({ position, id: event.id, stream_id: streamId, revision, type: event.type, data, metadata, recorded_at: recordedAt });
      }
      return { nextRevision: revision, lastPosition: BigInt(position) };
    });

  const readAllSync = (from: bigint, limit: number) => fromPosition.all(Number(from), limit).map(toRecorded);

  /** A page of the log after `from`, only of `types` when given; `upTo` is how far it read. */
  const filteredPages = new Map<string, ReturnType<typeof db.prepare<[number, number, number], Row>>>();
  const readPage = (from: bigint, limit: number, types?: ReadonlySet<string>): LogPage => {
    // Bounded by the head read first, so `upTo` never skips an event appended meanwhile.
    const headNow = BigInt(head.get()?.p ?? 0);
    const held = recent.page(Number(from), Number(headNow), limit, types);
    if (held) {
      const events = held.map(toRecorded);
      return { events, upTo: events.length === limit ? events[events.length - 1]!.position : headNow };
    }
    if (!types) {
      const events = between.all(Number(from), Number(headNow), limit).map(toRecorded);
      return { events, upTo: events.length === limit ? events[events.length - 1]!.position : headNow };
    }
    const list = [...types].sort();
    const key = list.join(',');
    let stmt = filteredPages.get(key);
    if (!stmt) {
      const quoted = list.map((t) => `'${t.replace(/'/g, "''")}'`).join(',');
      stmt = db.prepare<[number, number, number], Row>(
        `SELECT * FROM events WHERE position > ? AND position <= ? AND type IN (${quoted}) ORDER BY position LIMIT ?`,
      );
      filteredPages.set(key, stmt);
    }
    const events = stmt.all(Number(from), Number(headNow), limit).map(toRecorded);
    return { events, upTo: events.length === limit ? events[events.length - 1]!.position : headNow };
  };

  return {
    async append(streamId, events, expected) {
      if (events.length === 0) throw new Error('append needs at least one event');
      const rows: Row[] = [];
      const result = appendTx(streamId, events, expected, rows);
      // Inside a caller's transaction the rows are not committed yet, and may never be.
      if (db.inTransaction) recent.clear();
      else recent.push(rows);
      appended.emit('append');
      return result;
    },
    async readStream(streamId) {
      return byStream.all(streamId).map(toRecorded);
    },
    async readAll({ from = 0n, limit = 1000 } = {}) {
      return readAllSync(from, limit);
    },
    async headPosition() {
      return BigInt(head.get()?.p ?? 0);
    },
    subscribeToAll(from, onEvents, options: SubscribeOptions = {}) {
      const { eventTypes, ...rest } = options;
      // Changes only when another connection commits: this process's appends wake it through `appended`.
      let seen = dataVersion.get();
      const changed = () => seen !== (seen = dataVersion.get());
      return tailLog({ from, onEvents, read: (after, limit) => readPage(after, limit, eventTypes), signal: appended, pollIntervalMs, changed, ...rest });
    },
    async ping() {
      db.prepare('SELECT 1').get();
    },
    async close() {
      appended.emit('close');
    },
  };
}

function checkExpected(streamId: string, expected: ExpectedRevision, current: number | null) {
  const ok =
    expected === 'any' ||
    (expected === 'no_stream' && current === null) ||
    (expected === 'stream_exists' && current !== null) ||
    expected === current;
  if (!ok) throw new ConcurrencyError(streamId, expected, current ?? 'no_stream');
}

/** The store trusts what it wrote: the command shell parsed every event by its schema before appending it. */
function toRecorded(row: Row): RecordedEvent {
  return trustedEvent({
    id: row.id,
    type: row.type,
    streamId: row.stream_id,
    revision: row.revision,
    position: BigInt(row.position),
    data: JSON.parse(row.data),
    metadata: JSON.parse(row.metadata),
    recordedAt: row.recorded_at,
  });
}
