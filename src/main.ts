import type { Server } from 'node:http';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { allProjections } from '../projections/index.ts';
import type { AppContext } from './app/context.ts';
import { createIdGenerator } from './app/ids.ts';
import { PROJECTOR_GROUP, projectorGroup } from './app/projector.ts';
import { createAuthenticator } from './app/services/api-keys.ts';
import { createKnowledgeBaseService } from './app/services/knowledge-bases.ts';
import { createModelCatalog } from './app/services/models.ts';
import { createFsBlobStore } from './adapters/fs/blob-store.ts';
import { createHashingEmbedder } from './adapters/local/hashing-embedder.ts';
import { createInProcessBus } from './adapters/local/in-process-bus.ts';
import { createSqliteCheckpointStore } from './adapters/sqlite/checkpoint-store.ts';
import { openSqlite } from './adapters/sqlite/database.ts';
import { createSqliteEventStore } from './adapters/sqlite/event-store.ts';
import { createSqliteReadModelStore } from './adapters/sqlite/read-model-store.ts';
import type { Config } from './config.ts';
import { createApp } from './http/app.ts';
import { createMetrics } from './http/metrics.ts';
import { createRateLimiter } from './http/rate-limit.ts';

export const VERSION = '0.1.0';

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({ level: config.logLevel, base: { service: 'kbqa' } }, pino.destination(2));
}

/** The composition root of the embedded profile: every port gets its in-process adapter. */
export async function createRuntime(config: Config, logger: Logger = createLogger(config), clock: () => Date = () => new Date()) {
  const db = openSqlite(join(config.dataDir, 'kbqa.db'));
  const store = createSqliteEventStore({ db });
  const checkpoints = createSqliteCheckpointStore(db);
  const readModels = createSqliteReadModelStore(db);
  const blobs = createFsBlobStore(join(config.dataDir, 'blobs'));
  const bus = createInProcessBus({
    store,
    checkpoints,
    onError: (group, error) => logger.error({ err: error, group }, 'consumer group error'),
  });
  const authenticator = createAuthenticator({ readModels, now: clock });
  const projector = await bus.subscribe(
    projectorGroup(allProjections, readModels, (batch) => {
      for (const event of batch) if (event.type === 'ApiKeyRevoked') authenticator.evictKey((event.data as { key_id: string }).key_id);
    }),
  );
  const ctx: AppContext = {
    store,
    readModels,
    projector,
    newId: createIdGenerator(() => clock().getTime()),
    now: clock,
    consistencyTimeoutMs: config.consistencyTimeoutMs,
  };
  const embedder = createHashingEmbedder();
  const models = createModelCatalog([embedder.model], embedder.model.id);
  return {
    ctx,
    store,
    readModels,
    blobs,
    models,
    logger,
    authenticator,
    knowledgeBases: createKnowledgeBaseService(ctx, models),
    consumers: () => ({ [PROJECTOR_GROUP]: projector.position() }),
    async close() {
      await bus.close();
      await store.close();
      await readModels.close();
      db.close();
    },
  };
}

export type Runtime = Awaited<ReturnType<typeof createRuntime>>;

export function createHttpApp(runtime: Runtime, config: Config) {
  const metrics = createMetrics({ consumers: runtime.consumers, logHead: () => runtime.store.headPosition() });
  return createApp({
    ctx: runtime.ctx,
    authenticator: runtime.authenticator,
    models: runtime.models,
    knowledgeBases: runtime.knowledgeBases,
    metrics,
    rateLimiter: createRateLimiter(config.rateLimitPerMinute),
    maxJsonBytes: config.maxJsonBytes,
    version: VERSION,
    readiness: {
      event_store: () => runtime.store.ping(),
      read_models: () => runtime.readModels.ping(),
      blob_store: () => runtime.blobs.ping(),
      projector: async () => {
        const lag = (await runtime.store.headPosition()) - runtime.ctx.projector.position();
        if (lag > 10_000n) throw new Error(`projector is ${lag} events behind`);
      },
    },
    onServerError: (error, requestId) => runtime.logger.error({ err: error, requestId }, 'request failed'),
  });
}

/** Listens, and returns a close() that drains in-flight requests before closing the stores. */
export async function listen(runtime: Runtime, config: Config) {
  const app = createHttpApp(runtime, config);
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(config.port, config.host, () => resolve(s)).on('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return {
    server,
    port,
    async close() {
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive sockets turn idle as their last response ends; close each as soon as it does.
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), config.shutdownTimeoutMs);
      await drained;
      clearInterval(sweep);
      clearTimeout(timer);
      await runtime.close();
    },
  };
}
