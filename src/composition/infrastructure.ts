import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { createFsBlobStore } from '../adapters/fs/blob-store.ts';
import { createInProcessBus } from '../adapters/local/in-process-bus.ts';
import { createSqliteCheckpointStore } from '../adapters/sqlite/checkpoint-store.ts';
import { openSqlite, type SqliteDatabase } from '../adapters/sqlite/database.ts';
import { createSqliteEventStore } from '../adapters/sqlite/event-store.ts';
import { loadTextAnalyzer } from '../adapters/text/analyzer.ts';
import { embeddedIndexes } from './embedded-indexes.ts';
import { createSqliteReadModelStore } from '../adapters/sqlite/read-model-store.ts';
import type { Analyzer } from '../ports/analyzer.ts';
import type { BlobStore } from '../ports/blob-store.ts';
import type { EntityGraph } from '../ports/entity-graph.ts';
import type { CheckpointStore, EventBus } from '../ports/event-bus.ts';
import type { EventStore } from '../ports/event-store.ts';
import type { KeywordIndex } from '../ports/keyword-index.ts';
import type { PageRenderer } from '../ports/page-renderer.ts';
import type { PassageStore } from '../ports/passage-store.ts';
import { createWorkerPageRenderer } from '../adapters/local/worker-page-renderer.ts';
import type { ReadModelStore } from '../ports/read-models.ts';
import type { VectorIndex } from '../ports/vector-index.ts';
import type { SecretStore } from '../ports/secret-store.ts';
import { consoleSessionKey, masterKey, openSecretStore, visitorCookieKey } from './secret-store.ts';
import { busErrorLog } from './provider-log.ts';

export type SearchIndexes = { vectors: VectorIndex; keywords: KeywordIndex; graph: EntityGraph; passages: PassageStore };

export type RelayHandle = { position(): bigint; stop(): Promise<void> };

/** Every port bound to its adapter, as the configuration chose, and how to release them. */
export type Infrastructure = {
  store: EventStore;
  readModels: ReadModelStore;
  checkpoints: CheckpointStore;
  blobs: BlobStore;
  /** Model providers' API keys and the workspaces' secrets, encrypted (ports/secret-store.ts). */
  secrets: SecretStore;
  /** Seals the console's session cookies; every API process derives the same from the master key. */
  consoleSessionKey: Buffer;
  /** Draws document pages (GET …/pages/{n}/image). */
  renderer: PageRenderer;
  indexes: SearchIndexes;
  /** The text analysis every component shares, so query words and index terms meet. */
  analyzer: Analyzer;
  bus: EventBus;
  /** True when the bus orders events per stream only (Kafka): read-your-writes then waits per stream. */
  perStreamOrder: boolean;
  /** Publishes the log to the bus's topics (Kafka only; the in-process bus reads the log itself). */
  startRelay: (() => Promise<RelayHandle>) | null;
  /** The adapter behind each port, for the startup log and the table in docs/deployment.md. */
  adapters: Record<string, string>;
  close(): Promise<void>;
};

/** Whether some port stays embedded, so the data directory is used (and one process owns it). */
export function usesDataDir(distributed: Config['distributed']): boolean {
  return !distributed.eventStore || !distributed.mongo || !distributed.pinecone;
}

/** The distributed engines' clients, imported only when one of them is configured. */
async function distributedAdapters({ eventStore, kafka, mongo, pinecone }: Config['distributed']) {
  return eventStore || kafka || mongo || pinecone ? import('./distributed-adapters.ts') : null;
}

/**
 * Each port gets the engine its variable names (EVENTSTORE_URL, KAFKA_BROKERS, MONGODB_URL,
 * PINECONE_API_KEY) or, without one, its embedded adapter in the data directory. Any mix works
 * in one process; roles that run apart need them all (composition/roles.ts).
 */
export async function openInfrastructure(config: Config, logger: Logger): Promise<Infrastructure> {
  const { eventStore, kafka, mongo, pinecone } = config.distributed;
  const closers: (() => Promise<void> | void)[] = [];
  let db: SqliteDatabase | null = null;
  const sqlite = () => {
    if (!db) {
      const opened = openSqlite(join(config.dataDir, 'kbqa.db'));
      closers.push(() => void opened.close());
      db = opened;
    }
    return db;
  };
  try {
    const adapters: Record<string, string> = {};
    // First: a distributed deployment without KBQA_SECRET_KEY stops here, before it connects anywhere.
    const master = masterKey(config);
    const secrets = openSecretStore(config, master);
    closers.unshift(() => secrets.close());
    adapters.secret_store = 'sqlite';
    const dist = await distributedAdapters(config.distributed);
    const store = eventStore ? dist!.createEsdbEventStore({ connectionString: eventStore.url }) : createSqliteEventStore({ db: sqlite() });
    closers.unshift(() => store.close());
    adapters.event_store = eventStore ? 'eventstoredb' : 'sqlite';

    const conn = mongo ? await dist!.connectMongo(mongo.url) : null;
    if (conn) closers.unshift(() => conn.close());
    const readModels = conn ? dist!.createMongoReadModelStore(conn) : createSqliteReadModelStore(sqlite());
    closers.unshift(() => readModels.close());
    const checkpoints = conn ? dist!.createMongoCheckpointStore(conn) : createSqliteCheckpointStore(sqlite());
    const blobs = conn ? dist!.createGridFsBlobStore(conn) : createFsBlobStore(join(config.dataDir, 'blobs'));
    const analyzer = await loadTextAnalyzer();
    const embedded = embeddedIndexes(sqlite, analyzer, config.indexMemoryBytes);
    const indexes: SearchIndexes = {
      vectors: pinecone ? dist!.createPineconeVectorIndex({ apiKey: pinecone.apiKey, indexName: pinecone.index, indexHost: pinecone.host }) : embedded.vectors(),
      keywords: conn ? dist!.createMongoKeywordIndex(conn.db, { analyzer }) : embedded.keywords(),
      graph: conn ? dist!.createMongoEntityGraph(conn.db) : embedded.graph(),
      passages: conn ? dist!.createMongoPassageStore(conn.db) : embedded.passages(),
    };
    Object.assign(adapters, {
      read_models: conn ? 'mongodb' : 'sqlite',
      blob_store: conn ? 'gridfs' : 'files',
      vector_index: pinecone ? 'pinecone' : 'embedded',
      keyword_index: conn ? 'mongodb' : 'embedded',
      bus: kafka ? 'kafka' : 'in-process',
    });

    const onBusError = busErrorLog(logger);
    let bus: EventBus;
    let startRelay: Infrastructure['startRelay'] = null;
    if (kafka) {
      const kafkaBus = await dist!.openKafkaBus(kafka, {
        store,
        checkpoints,
        onBusError,
        onRelayError: (error) => logger.error({ err: error }, 'relay error'),
        warn: (message) => logger.warn(message),
      });
      closers.unshift(() => kafkaBus.close());
      adapters.kafka_publisher = kafkaBus.publisherClient;
      bus = kafkaBus.bus;
      startRelay = kafkaBus.startRelay;
    } else {
      bus = createInProcessBus({ store, checkpoints, onError: onBusError });
    }
    closers.unshift(() => bus.close());
    // Its threads start on the first page asked for and stop when idle; the files are local either way (BlobStore.localPath).
    const renderer = createWorkerPageRenderer({ threads: Math.min(2, config.ingestion.parserThreads), maxMemoryMb: config.ingestion.parseMemoryMb });
    closers.unshift(() => renderer.close());

    return {
      store,
      readModels,
      checkpoints,
      blobs,
      secrets,
      consoleSessionKey: consoleSessionKey(master),
      indexes,
      analyzer,
      bus,
      renderer,
      perStreamOrder: kafka !== null,
      startRelay,
      adapters,
      async close() {
        for (const close of closers.splice(0)) await close();
      },
    };
  } catch (error) {
    for (const close of closers.splice(0)) await Promise.resolve(close()).catch(() => {});
    throw error;
  }
}

/** The landing pages' HTTP settings: the per-address message limit, and the visitor-cookie key derived from the master key. */
export const landingCookieKey = (config: Config) => visitorCookieKey(masterKey(config));
