import type { Server } from 'node:http';
import { pino, type Logger } from 'pino';
import type { AppContext } from './app/context.ts';
import { createIdGenerator } from './app/ids.ts';
import { PROJECTOR_GROUP, projectorGroup } from './app/projector.ts';
import { createAuthenticator } from './app/services/api-keys.ts';
import { createLiveFeed } from './app/live-feed.ts';
import { reanalyseKeywordIndex, upgradeDataDir } from './composition/data-dir-upgrades.ts';
import { createLaneParsers } from './composition/parsers.ts';
import type { DocumentParser } from './ports/document-parser.ts';
import { detectMediaType } from './parsing/detect.ts';
import { DEFAULT_LIMITS } from './parsing/types.ts';
import { createModelCatalog } from './app/services/models.ts';
import { createSearchService } from './app/services/search.ts';
import { createMetadataCatalog } from './app/retrieval/metadata-catalog.ts';
import type { Config } from './config.ts';
import { groupWatch, streamPositionWatch } from './app/projection-watch.ts';
import { announcer } from './composition/announce.ts';
import { createModels } from './composition/models.ts';
import { landingCookieKey, openInfrastructure, type Infrastructure, type RelayHandle } from './composition/infrastructure.ts';
import { followLog } from './composition/log-feed.ts';
import { spreadRetrieval, type SpreadRetrieval } from './composition/query-offload.ts';
import { checkRole, isMixedProfile, partsOf, type Role } from './composition/roles.ts';
import type { ParseWorker } from './composition/parse-worker.ts';
import type { ParseLane } from './domain/document/parse-lane.ts';
import { readinessChecks, startupReadiness } from './composition/readiness.ts';
import type { GroupHandle } from './ports/event-bus.ts';
import type { RecordedEvent, Subscription } from './ports/event-store.ts';
import type { ReadinessCheck } from './http/routes/operations.ts';
import { createLoadShedder } from './http/load-shedding.ts';
import { createMetrics } from './http/metrics.ts';
import { boundOrigin, createHttpServer } from './http/server.ts';
import { createOperationsApp } from './http/app.ts';
import { composeApiApp } from './composition/api-app.ts';
import { allProjections, workerConsumers } from './capabilities/index.ts';
import { createServices } from './composition/services.ts';
import { createModelsProbe } from './adapters/openai/models-probe.ts';
import { createWorkspaceModelResolver } from './app/services/workspace-models.ts';
import { providerModelFactories, workspaceProviderFetch } from './composition/workspace-provider-models.ts';
import { idleCollection } from './adapters/local/idle-collection.ts';
import { chooseLogFormat, prettyDestination } from './adapters/local/pretty-log.ts';
import { createQueryServing } from './composition/query-serving.ts';
import { serverErrorLog } from './composition/provider-log.ts';
import { createCodeRunner } from './app/workflow-engine/code-runner.ts';

export { createModels };

export const VERSION = '0.1.0';

/** How long the server is quiet before it gives memory back: longer than the pauses between a client's requests. */
const IDLE_COLLECTION_MS = 30_000;
/** Start-up's garbage is collected this long after the server listens, probes or not (idle-collection.ts). */
const START_COLLECTION_MS = 2_000;

/** JSON lines on stderr, or human ones on a terminal (KBQA_LOG_FORMAT; adapters/local/pretty-log.ts). */
export function createLogger(config: Pick<Config, 'logLevel'> & Partial<Pick<Config, 'logFormat'>>, isTty = Boolean(process.stderr.isTTY)): Logger {
  const format = chooseLogFormat(config.logFormat ?? 'auto', isTty);
  return pino({ level: config.logLevel, base: { service: 'kbqa' } }, format === 'pretty' ? prettyDestination(2) : pino.destination(2));
}

/**
 * deferReady: the caller makes start-up writes of its own after creating the runtime (serve's
 * bootstrap, after listening) and calls `ready()` once they are made; otherwise readiness waits
 * for the read models to catch up with the log as the runtime found it.
 */
export type RuntimeOptions = { role?: Role; deferReady?: boolean };

/**
 * The composition root: binds every port to the adapter the configuration names, then starts
 * what the role runs (composition/roles.ts): the API's services, the relay, the workers (parser,
 * indexer, runner) and the projector. `npm start` is role `all` with every adapter embedded.
 */
export async function createRuntime(config: Config, logger: Logger = createLogger(config), clock: () => Date = () => new Date(), options: RuntimeOptions = {}) {
  const role = options.role ?? 'all';
  checkRole(role, config.distributed);
  if (role === 'worker' && isMixedProfile(config.distributed)) throw new Error('a worker of the mixed profile parses only: start it with startParseWorker (composition/parse-worker.ts)');
  const parts = partsOf(role);
  // Made here, not with the HTTP app, so that retrieval can tell a lone request from a queue of them.
  const loadShedder = createLoadShedder(config.load);
  const alone = () => loadShedder.demand('query') <= 1;
  const infra = await openInfrastructure(config, logger);
  const { store, readModels, blobs, indexes, bus } = infra;
  const authenticator = createAuthenticator({ readModels, now: clock });
  const feed = createLiveFeed();
  // An API process hears every projected document change (from its projector, or following the log), so its metadata catalog may cache.
  const metadataCatalog = createMetadataCatalog(readModels, { live: parts.api });
  const announceToClients = announcer(feed, authenticator);
  const workspaceModels = createWorkspaceModelResolver({ readModels, secrets: infra.secrets, ...providerModelFactories(config) });
  const announce = (batch: readonly RecordedEvent[]) => {
    announceToClients(batch);
    metadataCatalog.apply(batch);
    workspaceModels.apply(batch);
  };
  const groups = new Map<string, GroupHandle>();
  let relay: RelayHandle | null = null;
  let following: Subscription | null = null;
  let parser: Pick<DocumentParser, 'ping' | 'close'> | null = null;
  let retrieval: SpreadRetrieval | null = null;
  const parses: Record<ParseLane, number> = { large: 0, small: 0 };
  // In this order: consumers finish their batch in hand before the parser pool and the stores go.
  // Code nodes run on threads of their own (started on the first code node), never on this event loop.
  const code = createCodeRunner({ threads: config.codeThreads });
  const shutdownSteps = [() => following?.stop(), () => relay?.stop(), () => infra.bus.close(), () => parser?.close(), () => retrieval?.close(), () => code.close(), () => infra.close()];
  try {
    if (parts.projector) {
      groups.set(PROJECTOR_GROUP, await bus.subscribe(projectorGroup(allProjections, readModels, { onCommitted: parts.api ? announce : undefined, trackStreams: infra.perStreamOrder })));
    }
    const projections = infra.perStreamOrder ? streamPositionWatch(readModels) : groupWatch(groups.get(PROJECTOR_GROUP)!);
    const startup = startupReadiness(parts.api, { store, projections, perStreamOrder: infra.perStreamOrder }, options.deferReady, logger);
    shutdownSteps.unshift(startup.close);
    const ctx: AppContext = {
      store,
      readModels,
      projections,
      newId: createIdGenerator(() => clock().getTime()),
      now: clock,
      consistencyTimeoutMs: config.consistencyTimeoutMs,
    };
    const modelSet = await createModels(config, infra.analyzer, logger);
    const { embedders, chatModels, rerankers } = modelSet;
    const offline = [...embedders.values()][0]!;
    const models = createModelCatalog(
      [...chatModels.values(), ...embedders.values(), ...rerankers.values()].map((m) => m.model),
      config.defaultEmbeddingModel ?? offline.model.id,
      modelSet.unavailable,
    );
    shutdownSteps.push(modelSet.close);
    const { analyzer } = infra;
    const local = createQueryServing({ readModels, indexes, analyzer, models: modelSet, metadataCatalog, maxContextTokens: config.chat.maxContextTokens, workspaceModels });
    retrieval = spreadRetrieval(local, config, infra.adapters, alone);
    const search = createSearchService({ readModels, analyzer }, retrieval);
    const services = createServices({
      ctx,
      models,
      search,
      groundChat: retrieval.groundChat,
      chatModels,
      embedders,
      passages: indexes.passages,
      blobs,
      renderer: infra.renderer,
      secrets: infra.secrets,
      probe: createModelsProbe({ fetch: workspaceProviderFetch(config) }),
      workspaceModels,
      storeContent: config.chat.storeContent,
      authenticator,
      consoleSessionKey: infra.consoleSessionKey,
      workflowLimits: { maxContextTokens: config.chat.maxContextTokens, httpAllowHosts: config.workflowHttpAllowHosts },
      code,
    });
    if (parts.api && !parts.projector) {
      following = await followLog({ store, projections, announce, waitMs: config.consistencyTimeoutMs, onError: (error) => logger.warn({ err: error }, 'following the log') });
    }
    if (parts.relay && infra.startRelay) relay = await infra.startRelay();
    if (parts.worker) {
      const { ingestion } = config;
      const lanes = createLaneParsers(ingestion, logger);
      parser = lanes;
      const limits = { ...DEFAULT_LIMITS, maxPages: ingestion.maxPages, ocr: ingestion.ocr };
      await upgradeDataDir({ store, readModels, passages: indexes.passages }, logger);
      await reanalyseKeywordIndex({ keywords: indexes.keywords, passages: indexes.passages, readModels }, logger);
      const consumers = workerConsumers({
        ...{ services, blobs, feed, detectMediaType, limits, embedders, chatModels, indexes, logger },
        parsers: lanes.parsers,
        maxUploadBytes: ingestion.maxUploadBytes,
        parseTimeoutMs: ingestion.parseTimeoutMs,
        parseConcurrency: ingestion.parserThreads,
        workflowRuns: config.workflowRuns,
        onParsed: (lane) => void (parses[lane] += 1),
      });
      for (const [name, group] of consumers) groups.set(name, await bus.subscribe(group));
    }
    logger.info({ role, adapters: infra.adapters }, 'runtime started');
    return {
      role,
      parts,
      ctx,
      store,
      readModels,
      checkpoints: infra.checkpoints,
      blobs,
      secrets: infra.secrets,
      models,
      embedders,
      logger,
      authenticator,
      services,
      search,
      feed,
      indexes,
      groups,
      readiness: readinessChecks({ parts, infra, groups, relay: () => relay, parser, startup: startup.check }),
      /** The start's own writes are made (deferReady): readiness now waits for the read models to show them. */
      ready: startup.ready,
      retrievals: () => retrieval!.counts(),
      /** Documents this process parsed, per lane (kbqa_documents_parsed_total). */
      parses: () => ({ ...parses }),
      loadShedder,
      consumers: () => ({ ...Object.fromEntries([...groups].map(([name, g]) => [name, g.position()])), ...(relay && { relay: relay.position() }) }),
      async close() {
        for (const step of shutdownSteps) await step();
      },
    };
  } catch (error) {
    // Best effort: release whatever started, then report why the start failed.
    for (const step of shutdownSteps) await Promise.resolve().then(step).catch(() => {});
    throw error;
  }
}

export type Runtime = Awaited<ReturnType<typeof createRuntime>>;

/** The API for roles that serve it; the others (and a parse worker) answer only /healthz, /readyz and /metrics. */
export function createHttpApp(runtime: Runtime | ParseWorker, config: Config) {
  const { logger } = runtime;
  const api = 'services' in runtime && runtime.parts.api;
  const metrics = createMetrics({
    consumers: runtime.consumers,
    logHead: () => runtime.store.headPosition(),
    ...(runtime.parts.worker && { parses: runtime.parses }),
    ...(api && { load: runtime.loadShedder.stats, retrievals: runtime.retrievals }),
  });
  const onServerError = serverErrorLog(runtime.logger);
  if (!api) return createOperationsApp({ metrics, readiness: runtime.readiness, version: VERSION, onServerError, logger });
  const { loadShedder } = runtime;
  return composeApiApp(config, {
    services: runtime.services,
    authenticator: runtime.authenticator,
    blobs: runtime.blobs,
    feed: runtime.feed,
    loadShedder,
    metrics,
    readiness: runtime.readiness,
    version: VERSION,
    landingCookieKey: landingCookieKey(config),
    onServerError,
    logger,
  });
}

/** Listens, and returns a close() that drains in-flight requests before closing the stores. */
export async function listen(runtime: Runtime | ParseWorker, config: Config) {
  const app = createHttpApp(runtime, config);
  const server: Server = createHttpServer(app.callback(), config.server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject).listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const bound = boundOrigin(server);
  // Memory a burst of requests committed goes back once the server is quiet (idle-collection.ts).
  const quiet = idleCollection(IDLE_COLLECTION_MS);
  server.on('request', quiet.touch);
  quiet.touch();
  quiet.afterStart(START_COLLECTION_MS);
  return {
    server,
    port,
    /** The origin the server really bound (127.0.0.1 unless HOST says otherwise), for the start line. */
    origin: bound.origin,
    everyInterface: bound.everyInterface,
    async close() {
      quiet.stop();
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
