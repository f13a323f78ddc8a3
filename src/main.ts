import type { Server } from 'node:http';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { allProjections } from '../projections/index.ts';
import type { AppContext } from './app/context.ts';
import { createIdGenerator } from './app/ids.ts';
import { PROJECTOR_GROUP, projectorGroup } from './app/projector.ts';
import { createAuthenticator } from './app/services/api-keys.ts';
import { createDocumentService } from './app/services/documents.ts';
import { createKnowledgeBaseService } from './app/services/knowledge-bases.ts';
import { createLiveFeed } from './app/live-feed.ts';
import { createWorkerParser } from './adapters/local/worker-parser.ts';
import { createSqliteEntityGraph } from './adapters/sqlite/entity-graph.ts';
import { createSqliteKeywordIndex } from './adapters/sqlite/keyword-index.ts';
import { createSqliteVectorIndex } from './adapters/sqlite/vector-index.ts';
import { lifecycleMessage } from './http/sse-document-events.ts';
import { DEFAULT_LIMITS } from './parsing/types.ts';
import { indexerConsumer } from '../consumers/indexer/index.ts';
import { parserConsumer } from '../consumers/parser/index.ts';
import { runnerConsumer } from '../consumers/runner/index.ts';
import { createModelCatalog } from './app/services/models.ts';
import { createFsBlobStore } from './adapters/fs/blob-store.ts';
import { createHashingEmbedder } from './adapters/local/hashing-embedder.ts';
import { createOpenAiEmbedder } from './adapters/openai/embedder.ts';
import { createOpenAiClient } from './adapters/openai/client.ts';
import { createOpenAiChatModel } from './adapters/openai/chat-model.ts';
import { createApiReranker } from './adapters/rerank-api/reranker.ts';
import { createExtractiveChatModel } from './adapters/local/extractive-chat-model.ts';
import { createOfflineReranker } from './adapters/local/offline-reranker.ts';
import { createSqlitePassageStore } from './adapters/sqlite/passage-store.ts';
import { createChatService } from './app/services/chat.ts';
import { createSearchService } from './app/services/search.ts';
import { createWorkflowService } from './app/services/workflows.ts';
import type { ChatModel, Embedder, Reranker } from './ports/models.ts';
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
  const feed = createLiveFeed();
  const projector = await bus.subscribe(
    projectorGroup(allProjections, readModels, (batch) => {
      for (const event of batch) {
        if (event.type === 'ApiKeyRevoked') authenticator.evictKey((event.data as { key_id: string }).key_id);
        if (event.streamId.startsWith('document-')) feed.publish(event.streamId.slice('document-'.length), lifecycleMessage(event));
        // Run events reach waiting requests once projected, so a read right after sees them.
        if (event.streamId.startsWith('workflow_run-')) feed.publish(event.streamId.slice('workflow_run-'.length), { event: event.type, data: event.data as Record<string, unknown> });
      }
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
  const { embedders, chatModels, rerankers, defaultReranker } = createModels(config);
  const offline = [...embedders.values()][0]!;
  const models = createModelCatalog(
    [...chatModels.values(), ...embedders.values(), ...rerankers.values()].map((m) => m.model),
    config.defaultEmbeddingModel ?? offline.model.id,
  );
  const vectors = createSqliteVectorIndex(db);
  const keywords = createSqliteKeywordIndex(db);
  const graph = createSqliteEntityGraph(db);
  const passages = createSqlitePassageStore(db);
  const search = createSearchService({ readModels, indexes: { vectors, keywords, graph, passages }, embedders, rerankers, defaultReranker });
  const chat = createChatService({ ctx, search, chatModels, storeContent: config.chat.storeContent, maxContextTokens: config.chat.maxContextTokens });
  const { ingestion } = config;
  const parser = createWorkerParser({
    threads: ingestion.parserThreads,
    maxMemoryMb: ingestion.parseMemoryMb,
    warmUp: ingestion.warmUp,
    onWorkerError: (error) => logger.warn({ err: error }, 'a parser worker died; its document failed and a new worker replaces it'),
  });
  const consumers = [
    await bus.subscribe(
      parserConsumer({
        ctx,
        blobs,
        parser,
        feed,
        limits: { ...DEFAULT_LIMITS, maxPages: ingestion.maxPages, ocr: ingestion.ocr },
        timeoutMs: ingestion.parseTimeoutMs,
        concurrency: ingestion.parserThreads,
      }),
    ),
    await bus.subscribe(indexerConsumer({ ctx, embedders, vectors, keywords, graph, passages, feed })),
    await bus.subscribe(runnerConsumer({ ctx, search, chatModels, maxContextTokens: config.chat.maxContextTokens })),
  ];
  return {
    ctx,
    store,
    readModels,
    blobs,
    models,
    logger,
    authenticator,
    knowledgeBases: createKnowledgeBaseService(ctx, models),
    documents: createDocumentService(ctx),
    search,
    chat,
    workflows: createWorkflowService(ctx, models),
    feed,
    indexes: { vectors, keywords, graph, passages },
    parser,
    consumers: () => ({ [PROJECTOR_GROUP]: projector.position(), parser: consumers[0]!.position(), indexer: consumers[1]!.position(), runner: consumers[2]!.position() }),
    async close() {
      await bus.close();
      await parser.close();
      await store.close();
      await readModels.close();
      db.close();
    },
  };
}

export type Runtime = Awaited<ReturnType<typeof createRuntime>>;

/** The offline models always (listed first); a provider's models when configured. */
function createModels(config: Config) {
  const offlineEmbedder = createHashingEmbedder();
  const embedders = new Map<string, Embedder>([[offlineEmbedder.model.id, offlineEmbedder]]);
  const extractive = createExtractiveChatModel();
  const chatModels = new Map<string, ChatModel>([[extractive.model.id, extractive]]);
  const offlineReranker = createOfflineReranker();
  const rerankers = new Map<string, Reranker>([[offlineReranker.model.id, offlineReranker]]);
  if (config.openai) {
    const { apiKey, baseUrl, maxRetries, timeoutMs, embeddingModels, chatModels: chatIds } = config.openai;
    const client = createOpenAiClient({ apiKey, baseURL: baseUrl, maxRetries, timeoutMs });
    for (const { id, dimensions } of embeddingModels) embedders.set(id, createOpenAiEmbedder({ client, model: id, dimensions }));
    for (const id of chatIds) chatModels.set(id, createOpenAiChatModel({ client, model: id }));
  }
  if (config.rerank) {
    const { baseUrl, apiKey, models, maxRetries, timeoutMs } = config.rerank;
    for (const id of models) rerankers.set(id, createApiReranker({ baseUrl, apiKey, model: id, maxRetries, timeoutMs }));
  }
  return { embedders, chatModels, rerankers, defaultReranker: offlineReranker.model.id };
}

export function createHttpApp(runtime: Runtime, config: Config) {
  const metrics = createMetrics({ consumers: runtime.consumers, logHead: () => runtime.store.headPosition() });
  return createApp({
    ctx: runtime.ctx,
    authenticator: runtime.authenticator,
    models: runtime.models,
    knowledgeBases: runtime.knowledgeBases,
    search: runtime.search,
    chat: runtime.chat,
    workflows: { workflows: runtime.workflows, feed: runtime.feed, blockingWaitMs: config.workflowBlockingWaitMs },
    documents: {
      documents: runtime.documents,
      blobs: runtime.blobs,
      maxUploadBytes: config.ingestion.maxUploadBytes,
      maxFilesPerUpload: config.ingestion.maxFilesPerUpload,
      events: { store: runtime.store, feed: runtime.feed },
    },
    metrics,
    rateLimiter: createRateLimiter(config.rateLimitPerMinute),
    maxJsonBytes: config.maxJsonBytes,
    version: VERSION,
    readiness: {
      event_store: () => runtime.store.ping(),
      read_models: () => runtime.readModels.ping(),
      blob_store: () => runtime.blobs.ping(),
      vector_index: () => runtime.indexes.vectors.ping(),
      keyword_index: () => runtime.indexes.keywords.ping(),
      parser: () => runtime.parser.ping(),
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
