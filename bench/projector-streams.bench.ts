import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { allProjections } from '../src/capabilities/index.ts';
import { createSqliteCheckpointStore } from '../src/adapters/sqlite/checkpoint-store.ts';
import { openSqlite, type SqliteDatabase } from '../src/adapters/sqlite/database.ts';
import { createSqliteEventStore } from '../src/adapters/sqlite/event-store.ts';
import { createSqliteReadModelStore } from '../src/adapters/sqlite/read-model-store.ts';
import { STREAM_POSITIONS } from '../src/app/projection-watch.ts';
import { PROJECTOR_GROUP } from '../src/app/projector.ts';
import { replayReadModels } from '../src/app/replay.ts';
import { buildLog } from './replay.bench.ts';
import { log, round, timed, withTempDir } from './util.ts';

/**
 * What the distributed profile costs in CPU, with no broker: a replay that records each stream's position.
 */

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
