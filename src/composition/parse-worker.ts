import { join } from 'node:path';
import type { Logger } from 'pino';
import type { AppContext } from '../app/context.ts';
import { createIdGenerator } from '../app/ids.ts';
import { createLiveFeed } from '../app/live-feed.ts';
import { streamPositionWatch } from '../app/projection-watch.ts';
import { createFsBlobStore } from '../adapters/fs/blob-store.ts';
import { createSqliteCheckpointStore } from '../adapters/sqlite/checkpoint-store.ts';
import { openSqlite } from '../adapters/sqlite/database.ts';
import { createSqliteEventStore } from '../adapters/sqlite/event-store.ts';
import { createSqliteReadModelStore } from '../adapters/sqlite/read-model-store.ts';
import { parserGroups } from '../../consumers/parser/groups.ts';
import type { Config } from '../config.ts';
import type { ParseLane } from '../domain/document/parse-lane.ts';
import type { ReadinessCheck } from '../http/routes/operations.ts';
import { detectMediaType } from '../parsing/detect.ts';
import { DEFAULT_LIMITS } from '../parsing/types.ts';
import type { GroupHandle } from '../ports/event-bus.ts';
import { createLaneParsers } from './parsers.ts';
import { partsOf } from './roles.ts';
import { busErrorLog } from './provider-log.ts';

/**
 * A worker of the mixed profile (KAFKA_BROKERS and nothing else), beside the server that owns the
 * data directory: it joins the two parser groups and nothing else. It reads uploads from the
 * shared blob folder and appends its parses to the shared log (SQLite in WAL mode; an append
 * checks the stream's revision and takes its position in one immediate transaction, so appends
 * from both processes interleave safely). The owner's relay publishes them and its indexer,
 * runner and projector take them on. It opens no index and no projector: those keep caches in the
 * owner (budgeted vector and keyword indexes, the metadata catalog, the live feed) that writes
 * from here would leave stale. Parse progress (pages parsed) goes to this process's feed, which
 * no client reads; the document's lifecycle reaches clients through the log as ever.
 */
export async function startParseWorker(config: Config, logger: Logger, clock: () => Date = () => new Date()) {
  const kafka = config.distributed.kafka!;
  const db = openSqlite(join(config.dataDir, 'kbqa.db'));
  const closers: (() => Promise<void> | void)[] = [() => void db.close()];
  const close = async () => {
    for (const step of closers.splice(0)) await step();
  };
  try {
    const store = createSqliteEventStore({ db });
    const readModels = createSqliteReadModelStore(db);
    const checkpoints = createSqliteCheckpointStore(db);
    const blobs = createFsBlobStore(join(config.dataDir, 'blobs'));
    const { openKafkaBus } = await import('./distributed-adapters.ts');
    const kafkaBus = await openKafkaBus(kafka, {
      store,
      checkpoints,
      onBusError: busErrorLog(logger),
      onRelayError: () => {},
      warn: (message) => logger.warn(message),
    });
    closers.unshift(() => kafkaBus.close());
    closers.unshift(() => kafkaBus.bus.close());
    const ctx: AppContext = {
      store,
      readModels,
      // The owner's projector records each stream's progress in the shared database.
      projections: streamPositionWatch(readModels),
      newId: createIdGenerator(() => clock().getTime()),
      now: clock,
      consistencyTimeoutMs: config.consistencyTimeoutMs,
    };
    const { ingestion } = config;
    const lanes = createLaneParsers(ingestion, logger);
    // After the consumers (bus.close lets them finish their batch), before the database.
    closers.splice(closers.length - 1, 0, () => lanes.close());
    const parses: Record<ParseLane, number> = { large: 0, small: 0 };
    const groups = new Map<string, GroupHandle>();
    const consumers = parserGroups({
      ctx,
      blobs,
      parsers: lanes.parsers,
      detectMediaType,
      feed: createLiveFeed(),
      limits: { ...DEFAULT_LIMITS, maxPages: ingestion.maxPages, ocr: ingestion.ocr },
      maxUploadBytes: ingestion.maxUploadBytes,
      parseTimeoutMs: ingestion.parseTimeoutMs,
      parseConcurrency: ingestion.parserThreads,
      logger,
      onParsed: (lane) => void (parses[lane] += 1),
    });
    for (const [name, group] of Object.entries(consumers)) groups.set(name, await kafkaBus.bus.subscribe(group));
    logger.info({ role: 'worker', profile: 'mixed', groups: [...groups.keys()], dataDir: config.dataDir }, 'parse worker started');
    const readiness: ReadinessCheck = {
      event_store: () => store.ping(),
      read_models: () => readModels.ping(),
      blob_store: () => blobs.ping(),
      parser: () => lanes.ping(),
    };
    return {
      role: 'worker' as const,
      parts: partsOf('worker'),
      store,
      logger,
      groups,
      readiness,
      parses: () => ({ ...parses }),
      consumers: () => Object.fromEntries([...groups].map(([name, g]) => [name, g.position()])),
      close,
    };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}

export type ParseWorker = Awaited<ReturnType<typeof startParseWorker>>;
