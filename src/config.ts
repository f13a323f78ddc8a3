import { availableParallelism, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { BodyPace } from './http/body.ts';
import type { LoadLimits } from './http/load-shedding.ts';
import { distributedEnv } from './config-distributed.ts';
import { type LocalModelsConfig, localModelsConfig, localModelsEnv } from './config-local-models.ts';
import { hostAllowList, normalizeOrigin, originList } from './config-lists.ts';
import { type WorkflowRunLimits, workflowRunLimits, workflowRunsEnv } from './config-workflow-runs.ts';
import { MAX_OCR_READERS } from './parsing/parser-settings.ts';

const int = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);

const modelList = z.string().regex(/^\s*[^,\s]+\s*(,\s*[^,\s]+\s*)*$/, 'a comma-separated list of model ids');
const ids = (list: string | undefined) => (list ?? '').split(',').map((id) => id.trim()).filter(Boolean);
const Env = z.object({
  PORT: int(2678).pipe(z.number().max(65535)),
  // Loopback unless told otherwise: the quick start prints an admin key, and what it serves is for this machine
  // until an operator opens it up (the container image sets HOST=0.0.0.0).
  HOST: z.string().min(1).default('127.0.0.1'),
  KBQA_DATA_DIR: z.string().min(1).default('./data'),
  KBQA_ADMIN_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  KBQA_API_KEY: z.string().min(1).optional(),
  KBQA_RATE_LIMIT_PER_MINUTE: int(600),
  KBQA_LANDING_MESSAGES_PER_MINUTE: int(20), KBQA_LANDING_CODE_FAILURES_PER_MINUTE: int(10),
  KBQA_TRUST_PROXY: int(1),
  KBQA_MAX_JSON_KB: int(1024, 1),
  KBQA_CONSISTENCY_TIMEOUT_MS: int(5000, 1),
  KBQA_SHUTDOWN_TIMEOUT_MS: int(10_000, 1),
  KBQA_HEADERS_TIMEOUT_S: int(10, 1),
  KBQA_BODY_TIMEOUT_BASE_S: int(10, 1),
  KBQA_BODY_MIN_RATE_KBPS: int(16, 1),
  KBQA_KEEP_ALIVE_TIMEOUT_S: int(5, 1),
  KBQA_MAX_CONNECTIONS: int(1000),
  KBQA_QUERY_CONCURRENCY: int(32),
  KBQA_QUERY_QUEUE: int(32),
  KBQA_RUN_CONCURRENCY: int(8),
  KBQA_RUN_QUEUE: int(16),
  // Anonymous landing-page work: a class of its own, and each agent's share of it (running or waiting).
  KBQA_LANDING_CONCURRENCY: int(16), KBQA_LANDING_QUEUE: int(16), KBQA_LANDING_AGENT_CONCURRENCY: int(8),
  KBQA_QUEUE_WAIT_MS: int(1000, 1),
  KBQA_LOAD_STARTS_PER_TURN: int(2, 1),
  KBQA_INDEX_MEMORY_MB: z.coerce.number().int().min(0).optional(),
  KBQA_QUERY_PROCESSES: z.coerce.number().int().min(0).max(64).optional(),
  KBQA_MAX_UPLOAD_MB: int(50, 1),
  KBQA_MAX_FILES_PER_UPLOAD: int(20, 1),
  KBQA_PARSER_THREADS: int(1, 1),
  KBQA_PARSE_TIMEOUT_S: int(600, 1),
  KBQA_PARSE_MEMORY_MB: int(768, 64),
  KBQA_MAX_PAGES: int(5000, 1),
  KBQA_OCR: z.enum(['on', 'off']).default('on'),
  KBQA_OCR_ENGINE: z.enum(['auto', 'native', 'wasm']).default('auto'),
  KBQA_OCR_READERS: z.coerce.number().int().min(1).max(MAX_OCR_READERS).optional(),
  KBQA_PDF_ENGINE: z.enum(['pdfium', 'pdfjs']).default('pdfium'),
  KBQA_PARSER_WARMUP: z.enum(['on', 'off']).default('off'),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.url().optional(),
  KBQA_OPENAI_EMBEDDING_MODELS: z
    .string()
    .regex(/^\s*[^:,\s]+:\d+\s*(,\s*[^:,\s]+:\d+\s*)*$/, 'a comma-separated list of model:dimensions, e.g. text-embedding-3-small:1536')
    .optional(),
  KBQA_DEFAULT_EMBEDDING_MODEL: z.string().min(1).optional(),
  ...localModelsEnv,
  KBQA_OPENAI_CHAT_MODELS: modelList.optional(),
  KBQA_RERANK_URL: z.url().optional(),
  KBQA_RERANK_API_KEY: z.string().min(1).optional(),
  KBQA_RERANK_MODELS: modelList.optional(),
  KBQA_STORE_CHAT_CONTENT: z.enum(['on', 'off']).default('off'),
  KBQA_CHAT_MAX_CONTEXT_TOKENS: int(3000, 100),
  KBQA_WORKFLOW_BLOCKING_WAIT_S: int(30, 1),
  KBQA_WORKFLOW_HTTP_ALLOW_HOSTS: hostAllowList,
  KBQA_CODE_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  ...workflowRunsEnv,
  KBQA_OPENAI_MAX_RETRIES: int(5),
  KBQA_OPENAI_TIMEOUT_S: int(60, 1),
  KBQA_CORS_ORIGINS: originList.optional(),
  KBQA_CONSOLE_SIGNINS_PER_MINUTE: int(10),
  KBQA_AUTH_FAILURES_PER_MINUTE: int(20),
  KBQA_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  KBQA_LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  ...distributedEnv,
  KBQA_SECRET_KEY: z.string().trim().optional(),
});

/** Which engine backs each port; null means the embedded adapter under the data directory. */
export type DistributedConfig = {
  eventStore: { url: string } | null;
  /** `client`: who publishes the relay's messages, librdkafka (native) or kafkajs; 'auto' takes native when it loads. */
  kafka: { brokers: string[]; clientId: string; partitions: number; replicationFactor: number; namespace: string; client: 'auto' | 'kafkajs' | 'native' } | null;
  mongo: { url: string } | null;
  pinecone: { apiKey: string; index: string; host: string | undefined } | null;
};

export type Config = LocalModelsConfig & {
  port: number;
  host: string;
  dataDir: string;
  adminKey: string | undefined;
  /**
   * The key the CLI calls a running server with (`kbqa demo`) when `--key` is not given: the key is
   * a secret, and an environment variable keeps it out of the shell history and `ps`.
   */
  cli: { apiKey: string | undefined };
  rateLimitPerMinute: number;
  /** Per minute (0: no limit): messages one address may send to landing pages (a benchmark raises it), wrong access codes one agent takes from all. */
  landing: { messagesPerMinute: number; codeFailuresPerMinute: number };
  /** Proxies in front that append to X-Forwarded-For, for the limits per address (http/client-address.ts). */
  trustProxy: number;
  maxJsonBytes: number;
  consistencyTimeoutMs: number;
  shutdownTimeoutMs: number;
  /** How long a client may take to send a request, how long an idle connection stays, how many there may be. */
  server: {
    headersTimeoutMs: number;
    /** A body must arrive at `minBytesPerSecond` on average once `baseMs` have passed (else 408). */
    body: BodyPace;
    keepAliveTimeoutMs: number;
    /** 0: no cap. */
    maxConnections: number;
  };
  /** Load shedding per process: requests holding a slot, waiting for one, and how long they may wait (else 503). */
  load: LoadLimits;
  logLevel: z.infer<typeof Env>['KBQA_LOG_LEVEL'];
  /** JSON lines, human ones, or (auto) human on a terminal and JSON elsewhere. */
  logFormat: z.infer<typeof Env>['KBQA_LOG_FORMAT'];
  /** Origins browsers may call the API from (`*` for any); empty means CORS is off. */
  corsOrigins: string[];
  /** Console sign-in attempts a client address may make a minute, right or wrong (0: no limit). */
  consoleSignInsPerMinute: number;
  /** Wrong API keys a client address, and a key prefix, may send a minute before they are refused 429 (0: no limit). */
  authFailuresPerMinute: number;
  openai: {
    apiKey: string;
    baseUrl: string | undefined;
    embeddingModels: { id: string; dimensions: number }[];
    chatModels: string[];
    /** Whether the models are OPENAI_DEFAULT_MODELS, for a key to OpenAI itself with neither list set. */
    defaultModels: boolean;
    maxRetries: number;
    timeoutMs: number;
  } | null;
  /** How calls to a workspace's own model providers retry and time out (KBQA_OPENAI_MAX_RETRIES, KBQA_OPENAI_TIMEOUT_S). */
  workspaceProviders: { maxRetries: number; timeoutMs: number };
  /** Knowledge bases created without an embedding_model get this one (else the offline model). */
  defaultEmbeddingModel: string | undefined;
  /** A Cohere/Jina-style `/rerank` endpoint and the models it serves. */
  rerank: { baseUrl: string; apiKey: string | undefined; models: string[]; maxRetries: number; timeoutMs: number } | null;
  /** How long a blocking workflow run waits before answering 202 with the run so far. */
  workflowBlockingWaitMs: number;
  /** Host names (`.example.com` for subdomains) and IP ranges http_request nodes may reach though not public (SSRF rules, docs/api/workflows.md). */
  workflowHttpAllowHosts: string[];
  /** Sandbox threads code nodes run on (code nodes at once in this process); by default every core but the event loop's. */
  codeThreads: number;
  /** Runs a runner process executes at once, in all and per workspace, and takes from the log ahead (consumers/runner/scheduler.ts). */
  workflowRuns: WorkflowRunLimits;
  chat: {
    /** Whether ChatCompleted events carry the question and the answer, or only their metadata. */
    storeContent: boolean;
    /** How many tokens of retrieved passages a prompt may carry. */
    maxContextTokens: number;
  };
  distributed: DistributedConfig;
  /**
   * The master key that wraps every workspace's data key in the secret store (KBQA_SECRET_KEY, 32
   * bytes as base64 or hex). Unset: the embedded profile keeps one in `<data dir>/secret.key`; the
   * distributed profile refuses to start (composition/secret-store.ts).
   */
  secretKey: Buffer | undefined;
  /** What the embedded indexes may hold in memory before the least recently used knowledge bases are unloaded; 0: no limit. */
  indexMemoryBytes: number;
  /** Processes that answer retrievals beside the main one when it is busy (embedded indexes only); 0: none. */
  queryProcesses: number;
  ingestion: {
    maxUploadBytes: number;
    maxFilesPerUpload: number;
    parserThreads: number;
    parseTimeoutMs: number;
    parseMemoryMb: number;
    maxPages: number;
    ocr: boolean;
    /** 'auto': the system's tesseract when one is installed, else tesseract.js (src/parsing/ocr/ocr.ts). */
    ocrEngine: 'auto' | 'native' | 'wasm';
    /** Page readings a parser process may run at once: halves of a large page, or two languages, on two cores. */
    ocrReaders: number;
    /** Who reads PDF text layers: PDFium (pdf.js for what it refuses and for OCR), or pdf.js alone (src/parsing/pdf/pdf.ts). */
    pdfEngine: 'pdfium' | 'pdfjs';
    warmUp: boolean;
  };
};

/** The only reader of the environment: everything else receives a Config. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means unset (compose files pass optional settings through as empty strings).
  const parsed = Env.safeParse(Object.fromEntries(Object.entries(env).filter(([, value]) => value !== '')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  // How every call to a model provider is retried and timed out: the environment's, the workspaces' and the reranker.
  const providerCalls = { maxRetries: e.KBQA_OPENAI_MAX_RETRIES, timeoutMs: e.KBQA_OPENAI_TIMEOUT_S * 1000 };
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.KBQA_DATA_DIR),
    adminKey: e.KBQA_ADMIN_KEY,
    cli: { apiKey: e.KBQA_API_KEY },
    rateLimitPerMinute: e.KBQA_RATE_LIMIT_PER_MINUTE,
    landing: { messagesPerMinute: e.KBQA_LANDING_MESSAGES_PER_MINUTE, codeFailuresPerMinute: e.KBQA_LANDING_CODE_FAILURES_PER_MINUTE }, trustProxy: e.KBQA_TRUST_PROXY,
    maxJsonBytes: e.KBQA_MAX_JSON_KB * 1024,
    consistencyTimeoutMs: e.KBQA_CONSISTENCY_TIMEOUT_MS,
    shutdownTimeoutMs: e.KBQA_SHUTDOWN_TIMEOUT_MS,
    server: {
      headersTimeoutMs: e.KBQA_HEADERS_TIMEOUT_S * 1000,
      body: { baseMs: e.KBQA_BODY_TIMEOUT_BASE_S * 1000, minBytesPerSecond: e.KBQA_BODY_MIN_RATE_KBPS * 1024 },
      keepAliveTimeoutMs: e.KBQA_KEEP_ALIVE_TIMEOUT_S * 1000,
      maxConnections: e.KBQA_MAX_CONNECTIONS,
    },
    load: {
      query: { concurrency: e.KBQA_QUERY_CONCURRENCY, queue: e.KBQA_QUERY_QUEUE },
      run: { concurrency: e.KBQA_RUN_CONCURRENCY, queue: e.KBQA_RUN_QUEUE },
      landing: { concurrency: e.KBQA_LANDING_CONCURRENCY, queue: e.KBQA_LANDING_QUEUE, perPartition: e.KBQA_LANDING_AGENT_CONCURRENCY },
      queueWaitMs: e.KBQA_QUEUE_WAIT_MS,
      startsPerTurn: e.KBQA_LOAD_STARTS_PER_TURN,
    },
    logLevel: e.KBQA_LOG_LEVEL,
    logFormat: e.KBQA_LOG_FORMAT,
    corsOrigins: ids(e.KBQA_CORS_ORIGINS).map(normalizeOrigin),
    consoleSignInsPerMinute: e.KBQA_CONSOLE_SIGNINS_PER_MINUTE,
    authFailuresPerMinute: e.KBQA_AUTH_FAILURES_PER_MINUTE,
    openai: e.OPENAI_API_KEY ? { apiKey: e.OPENAI_API_KEY, baseUrl: e.OPENAI_BASE_URL, ...openAiModels(e), ...providerCalls } : null,
    workspaceProviders: providerCalls,
    defaultEmbeddingModel: e.KBQA_DEFAULT_EMBEDDING_MODEL,
    ...localModelsConfig(e),
    rerank: e.KBQA_RERANK_URL ? { baseUrl: e.KBQA_RERANK_URL, apiKey: e.KBQA_RERANK_API_KEY, models: ids(e.KBQA_RERANK_MODELS), ...providerCalls } : null,
    chat: { storeContent: e.KBQA_STORE_CHAT_CONTENT === 'on', maxContextTokens: e.KBQA_CHAT_MAX_CONTEXT_TOKENS },
    workflowBlockingWaitMs: e.KBQA_WORKFLOW_BLOCKING_WAIT_S * 1000,
    workflowHttpAllowHosts: e.KBQA_WORKFLOW_HTTP_ALLOW_HOSTS,
    codeThreads: e.KBQA_CODE_THREADS ?? Math.max(1, availableParallelism() - 1),
    workflowRuns: workflowRunLimits(e),
    distributed: {
      eventStore: e.EVENTSTORE_URL ? { url: e.EVENTSTORE_URL } : null,
      kafka: e.KAFKA_BROKERS
        ? { brokers: ids(e.KAFKA_BROKERS), clientId: e.KAFKA_CLIENT_ID, partitions: e.KAFKA_TOPIC_PARTITIONS, replicationFactor: e.KAFKA_REPLICATION_FACTOR, namespace: e.KAFKA_NAMESPACE, client: e.KBQA_KAFKA_CLIENT }
        : null,
      mongo: e.MONGODB_URL ? { url: e.MONGODB_URL } : null,
      pinecone: pinecone(e),
    },
    secretKey: e.KBQA_SECRET_KEY ? parseSecretKey(e.KBQA_SECRET_KEY) : undefined,
    indexMemoryBytes: (e.KBQA_INDEX_MEMORY_MB ?? defaultIndexMemoryMb()) * 1024 * 1024,
    queryProcesses: e.KBQA_QUERY_PROCESSES ?? availableParallelism() - 1,
    ingestion: {
      maxUploadBytes: e.KBQA_MAX_UPLOAD_MB * 1024 * 1024,
      maxFilesPerUpload: e.KBQA_MAX_FILES_PER_UPLOAD,
      parserThreads: e.KBQA_PARSER_THREADS,
      parseTimeoutMs: e.KBQA_PARSE_TIMEOUT_S * 1000,
      parseMemoryMb: e.KBQA_PARSE_MEMORY_MB,
      maxPages: e.KBQA_MAX_PAGES,
      ocr: e.KBQA_OCR === 'on',
      ocrEngine: e.KBQA_OCR_ENGINE,
      ocrReaders: e.KBQA_OCR_READERS ?? Math.min(MAX_OCR_READERS, availableParallelism()),
      pdfEngine: e.KBQA_PDF_ENGINE,
      warmUp: e.KBQA_PARSER_WARMUP === 'on',
    },
  };
}

/**
 * An eighth of the memory the process may use (the container's limit when there is one): the
 * rest is for the parser threads (up to KBQA_PARSE_MEMORY_MB each), OCR, SQLite's page cache,
 * the JS heap of requests in flight, and whatever else runs on the machine. At about 1 KB per
 * chunk, 1 GB holds about a million chunks hot; colder ones reload from disk in about a second
 * per 100k chunks.
 */
function defaultIndexMemoryMb(): number {
  const constrained = process.constrainedMemory();
  const total = constrained > 0 && constrained < totalmem() ? constrained : totalmem();
  return Math.max(64, Math.floor(total / 8 / 1024 / 1024));
}

/** 32 bytes, written as 64 hex digits or as base64; anything else is named, never echoed (it is a secret). */
export function parseSecretKey(text: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : /^[A-Za-z0-9+/_-]+={0,2}$/.test(text) ? Buffer.from(text, 'base64') : null;
  if (key?.length !== 32) throw new Error('invalid configuration: KBQA_SECRET_KEY: must be 32 bytes, as 64 hex digits or base64 (openssl rand -base64 32)');
  return key;
}

function pinecone(e: z.infer<typeof Env>): DistributedConfig['pinecone'] {
  if (!e.PINECONE_API_KEY && !e.PINECONE_INDEX) return null;
  if (!e.PINECONE_API_KEY || !e.PINECONE_INDEX) throw new Error('invalid configuration: PINECONE_API_KEY and PINECONE_INDEX go together');
  return { apiKey: e.PINECONE_API_KEY, index: e.PINECONE_INDEX, host: e.PINECONE_INDEX_HOST };
}

/**
 * What OPENAI_API_KEY alone offers: a key to OpenAI itself (no OPENAI_BASE_URL, or api.openai.com)
 * with neither model list set gets these, since a key that configures nothing is never what was
 * meant; another server's model names cannot be guessed, so its lists stay empty (the start-up log says what to set).
 */
export const OPENAI_DEFAULT_MODELS = { chatModels: ['gpt-4o-mini'], embeddingModels: [{ id: 'text-embedding-3-small', dimensions: 1536 }] };

function openAiModels(e: Pick<z.infer<typeof Env>, 'OPENAI_BASE_URL' | 'KBQA_OPENAI_EMBEDDING_MODELS' | 'KBQA_OPENAI_CHAT_MODELS'>) {
  const toOpenAi = e.OPENAI_BASE_URL === undefined || new URL(e.OPENAI_BASE_URL).hostname === 'api.openai.com';
  if (toOpenAi && e.KBQA_OPENAI_EMBEDDING_MODELS === undefined && e.KBQA_OPENAI_CHAT_MODELS === undefined) {
    return { ...structuredClone(OPENAI_DEFAULT_MODELS), defaultModels: true };
  }
  const embeddingModels = (e.KBQA_OPENAI_EMBEDDING_MODELS ?? '')
    .split(',')
    .filter((entry) => entry.trim())
    .map((entry) => {
      const [id, dims] = entry.trim().split(':');
      return { id: id!, dimensions: Number(dims) };
    });
  return { embeddingModels, chatModels: ids(e.KBQA_OPENAI_CHAT_MODELS), defaultModels: false };
}
