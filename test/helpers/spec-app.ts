import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { createFsBlobStore } from '../../src/adapters/fs/blob-store.ts';
import { createInProcessBus } from '../../src/adapters/local/in-process-bus.ts';
import { createSqliteCheckpointStore } from '../../src/adapters/sqlite/checkpoint-store.ts';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { createSqliteEventStore } from '../../src/adapters/sqlite/event-store.ts';
import { createSqliteReadModelStore } from '../../src/adapters/sqlite/read-model-store.ts';
import { createSqliteSecretStore } from '../../src/adapters/sqlite/secret-store.ts';
import { createModelsProbe } from '../../src/adapters/openai/models-probe.ts';
import { createWorkspaceModelResolver } from '../../src/app/services/workspace-models.ts';
import { providerModelFactories, workspaceProviderFetch } from '../../src/composition/workspace-provider-models.ts';
import { loadTextAnalyzer } from '../../src/adapters/text/analyzer.ts';
import type { AppContext } from '../../src/app/context.ts';
import { createIdGenerator } from '../../src/app/ids.ts';
import { createLiveFeed } from '../../src/app/live-feed.ts';
import { groupWatch } from '../../src/app/projection-watch.ts';
import { projectorGroup } from '../../src/app/projector.ts';
import { createMetadataCatalog } from '../../src/app/retrieval/metadata-catalog.ts';
import { createAuthenticator } from '../../src/app/services/api-keys.ts';
import { createModelCatalog } from '../../src/app/services/models.ts';
import { createSearchService } from '../../src/app/services/search.ts';
import { bootstrap } from '../../src/app/services/workspaces.ts';
import { allProjections } from '../../src/capabilities/index.ts';
import { announcer } from '../../src/composition/announce.ts';
import { embeddedIndexes } from '../../src/composition/embedded-indexes.ts';
import { createModels } from '../../src/composition/models.ts';
import { createQueryServing } from '../../src/composition/query-serving.ts';
import { consoleSessionKey } from '../../src/composition/secret-store.ts';
import { createServices } from '../../src/composition/services.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { composeApiApp } from '../../src/composition/api-app.ts';
import { createLoadShedder } from '../../src/http/load-shedding.ts';
import { createMetrics } from '../../src/http/metrics.ts';
import type { Analyzer } from '../../src/ports/analyzer.ts';
import type { RecordedEvent } from '../../src/ports/event-store.ts';
import type { PageRenderer } from '../../src/ports/page-renderer.ts';
import { ADMIN_KEY } from './admin-key.ts';
import { call, type CallOptions, type Reply } from './call.ts';

export type SpecApp = {
  /** The loopback address the app listens on, for a request call() cannot make (a streamed body, say). */
  url: string;
  /** The services' context: the ports, the clock, the ids (createWorkspaceWithAdminKey takes it). */
  ctx: AppContext;
  /** What made a request fail with a 5xx, in order (the runtime logs these). */
  serverErrors: unknown[];
  /** Moves the app's clock (expiry tests). */
  advanceClock(ms: number): void;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  head(): Promise<bigint>;
  close(): Promise<void>;
};

/**
 * env: configuration variables on top of the defaults (KBQA_MAX_JSON_KB, say), as startServer
 * takes them. now: a clock that stands still at this instant (advanceClock still moves it), so
 * the times in responses and events are known; without it, the real time.
 */
export type SpecAppOptions = { env?: Record<string, string>; now?: string };

/**
 * The analyzer and the offline models, made once per test process and shared by every app: they
 * keep no state a test could see, and making them is most of an app's start (their tables and
 * weights load). Only the offline models: a spec configures no provider.
 */
let offlineModels: Promise<{ analyzer: Analyzer; models: Awaited<ReturnType<typeof createModels>> }> | null = null;
const sharedModels = (config: Config) =>
  (offlineModels ??= loadTextAnalyzer().then(async (analyzer) => ({ analyzer, models: await createModels(config, analyzer) })));

/**
 * No page is drawn by the routes a spec covers: the worker renderer would start processes for
 * nothing, and a test that draws pages uses startServer.
 */
const noRenderer: PageRenderer = {
  render: () => Promise.reject(new Error('the HTTP spec app draws no pages: use startServer for page images')),
  close: () => Promise.resolve(),
};

/** An object made on its first property read; its methods keep it as `this`. */
function lazy<T extends object>(make: () => T): T {
  let made: T | undefined;
  return new Proxy({} as T, {
    get(_, key) {
      made ??= make();
      const value: unknown = Reflect.get(made, key);
      return typeof value === 'function' ? value.bind(made) : value;
    },
  });
}

/**
 * The API's app factory (src/http/app.ts) over in-memory ports: one SQLite database in memory
 * for the log, the read models and the checkpoints, the in-process bus with the real projector
 * (so a command reads its own writes as in production), the real services and routes, and the
 * offline models. No worker runs (nothing parses, indexes or runs workflows) and nothing is
 * written to disk unless a test stores a blob. It starts in milliseconds; startServer boots the
 * whole runtime for the tests that need the workers.
 *
 * The wiring is createRuntime's API part (src/main.ts), without the roles, the data directory and
 * the query processes; change both together.
 */
export async function startSpecApp({ env = {}, now }: SpecAppOptions = {}): Promise<SpecApp> {
  const config = loadConfig({ KBQA_DATA_DIR: tmpdir(), KBQA_ADMIN_KEY: ADMIN_KEY, KBQA_PARSER_WARMUP: 'off', KBQA_QUERY_PROCESSES: '0', ...env });
  let offset = 0;
  const standing = now === undefined ? null : Date.parse(now);
  const clock = () => new Date((standing ?? Date.now()) + offset);
  const db = openSqlite(':memory:');
  const store = createSqliteEventStore({ db });
  const readModels = createSqliteReadModelStore(db);
  const checkpoints = createSqliteCheckpointStore(db);
  const bus = createInProcessBus({ store, checkpoints });
  const authenticator = createAuthenticator({ readModels, now: clock });
  const feed = createLiveFeed();
  const metadataCatalog = createMetadataCatalog(readModels, { live: true });
  // As the runtime's API process: a revoked key's cached principal goes, waiting requests hear their events.
  const announceToClients = announcer(feed, authenticator);
  // The secret store in the same in-memory database, under a master key of its own.
  const master = randomBytes(32);
  const secrets = createSqliteSecretStore(db, master);
  const workspaceModels = createWorkspaceModelResolver({ readModels, secrets, ...providerModelFactories(config) });
  const onCommitted = (batch: readonly RecordedEvent[]) => {
    announceToClients(batch);
    metadataCatalog.apply(batch);
    workspaceModels.apply(batch);
  };
  const projector = await bus.subscribe(projectorGroup(allProjections, readModels, { onCommitted }));
  const ctx: AppContext = {
    store,
    readModels,
    projections: groupWatch(projector),
    newId: createIdGenerator(() => clock().getTime()),
    now: clock,
    consistencyTimeoutMs: config.consistencyTimeoutMs,
  };

  const { analyzer: textAnalyzer, models: offlineSet } = await sharedModels(config);
  const { embedders, chatModels, rerankers } = offlineSet;
  const offline = [...embedders.values()][0]!;
  const models = createModelCatalog([...chatModels.values(), ...embedders.values(), ...rerankers.values()].map((m) => m.model), offline.model.id);
  const embedded = embeddedIndexes(() => db, textAnalyzer, config.indexMemoryBytes);
  // Each made on first use: their tables are a third of an app's start, and most specs search nothing.
  const indexes = { vectors: lazy(embedded.vectors), keywords: lazy(embedded.keywords), graph: lazy(embedded.graph), passages: lazy(embedded.passages) };
  // Built as every process that serves queries builds it.
  const retrieval = createQueryServing({ readModels, indexes, analyzer: textAnalyzer, models: offlineSet, metadataCatalog, maxContextTokens: config.chat.maxContextTokens, workspaceModels });
  // Created lazily by the blob store, on a test's first upload only.
  const blobDir = join(tmpdir(), `kbqa-spec-blobs-${randomUUID()}`);
  const blobs = createFsBlobStore(blobDir);
  const services = createServices({
    ctx,
    models,
    search: createSearchService({ readModels, analyzer: textAnalyzer }, retrieval),
    groundChat: retrieval.groundChat,
    chatModels,
    embedders,
    passages: indexes.passages,
    blobs,
    renderer: noRenderer,
    secrets,
    probe: createModelsProbe({ fetch: workspaceProviderFetch(config) }),
    workspaceModels,
    storeContent: config.chat.storeContent,
    authenticator,
    consoleSessionKey: consoleSessionKey(master),
    workflowLimits: { maxContextTokens: config.chat.maxContextTokens, httpAllowHosts: config.workflowHttpAllowHosts },
  });

  const loadShedder = createLoadShedder(config.load);
  // Kept for the spec to report: a 5xx's cause would otherwise go to a silent log.
  const serverErrors: unknown[] = [];
  const onServerError = (error: unknown) => void serverErrors.push(error);
  const version = 'spec';
  const app = composeApiApp(config, {
    services,
    authenticator,
    blobs,
    feed,
    loadShedder,
    metrics: createMetrics({ consumers: () => ({ projector: projector.position() }), logHead: () => store.headPosition() }),
    readiness: { event_store: () => store.ping(), read_models: () => readModels.ping() },
    version,
    landingCookieKey: randomBytes(32),
    onServerError,
    logger: pino({ level: 'silent' }),
  });
  await bootstrap(ctx, ADMIN_KEY);

  const server: Server = createServer(app.callback());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    ctx,
    serverErrors,
    advanceClock: (ms) => void (offset += ms),
    call: (method, path, options) => call(url, method, path, options),
    head: () => store.headPosition(),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await bus.close();
      await store.close();
      await readModels.close();
      db.close();
      rmSync(blobDir, { recursive: true, force: true });
    },
  };
}
