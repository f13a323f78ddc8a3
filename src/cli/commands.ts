import { join } from 'node:path';
import type { Logger } from 'pino';
import { allProjections } from '../capabilities/index.ts';
import { sweepStaleTempBlobs } from '../adapters/fs/blob-store.ts';
import { joinDataDir, lockDataDir } from '../adapters/sqlite/data-dir-lock.ts';
import { replayReadModels } from '../app/replay.ts';
import { createApiKey } from '../app/services/api-keys.ts';
import { bootstrap, createWorkspaceWithAdminKey, DEFAULT_WORKSPACE } from '../app/services/workspaces.ts';
import { workspaceIdProblem } from '../domain/workspace/workspace.ts';
import { ApiKeyScope } from '../../schemas/events/api-key.ts';
import type { Config } from '../config.ts';
import { createLogger, createModels, createRuntime, listen } from '../main.ts';
import { reindexKnowledgeBase } from '../app/reindex.ts';
import { openInfrastructure, type Infrastructure, usesDataDir } from '../composition/infrastructure.ts';
import { checkRole, isMixedProfile, type Role } from '../composition/roles.ts';
import { startParseWorker } from '../composition/parse-worker.ts';
import { progressBar } from './progress.ts';
import { demoHints, loadDemo } from './demo.ts';
import { createWorkspaceModelResolver } from '../app/services/workspace-models.ts';
import { providerModelFactories } from '../composition/workspace-provider-models.ts';

export async function serve(config: Config, role: Role = 'all') {
  const logger = createLogger(config);
  checkRole(role, config.distributed);
  const local = usesDataDir(config.distributed);
  const kafka = config.distributed.kafka && { brokers: config.distributed.kafka.brokers, namespace: config.distributed.kafka.namespace };
  // The mixed profile's worker joins the data directory its owner holds, and parses only (composition/parse-worker.ts).
  const parseWorker = role === 'worker' && isMixedProfile(config.distributed);
  const release = parseWorker ? joinDataDir(config.dataDir, kafka!) : local ? lockDataDir(config.dataDir, 'serve', { kafka }) : () => {};
  // The owner alone writes blobs, and has taken no upload yet: what is in their temp folder was cut short (issue 42, item 19).
  if (local && !parseWorker && !config.distributed.mongo) await sweepUploadsCutShort(config, logger);
  const runtime = parseWorker ? await startParseWorker(config, logger) : await createRuntime(config, logger, undefined, { role, deferReady: true });
  // Listening first: a start that cannot (the port taken) must not have made and printed the
  // one-time key, or the next start would print none. A request before the key exists has no key to send.
  const http = await listen(runtime, config).catch((error: unknown) => {
    throw portTaken(error, config) ?? error;
  });
  const api = 'services' in runtime && runtime.parts.api;
  const printed = api ? await bootstrap(runtime.ctx, config.adminKey) : null;
  // Ready once the read models show the bootstrap key and everything recorded before the start.
  if ('services' in runtime) runtime.ready();
  if (printed) {
    process.stdout.write(
      `\nCreated workspace '${DEFAULT_WORKSPACE}' with an admin API key. It is shown this once; keep it:\n\n    ${printed}\n\n`,
    );
  }
  process.stdout.write(startLines(config, role, http, { api: Boolean(api), printed: printed !== null, where: placeOf(config, parseWorker, local) }));
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Consumers finish the batch in hand and commit before leaving their groups.
    logger.info({ signal, role }, 'shutting down: finishing in-flight requests and batches');
    await http.close();
    release();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/** Where this process keeps its data, for the start line. */
const placeOf = (config: Config, parseWorker: boolean, local: boolean) => (parseWorker ? ` (parsing beside the server that owns ${config.dataDir})` : local ? ` (data in ${config.dataDir})` : '');

/** The start line, one write so that whoever waits for the listening line has the hint with it. */
function startLines(config: Config, role: Role, http: { origin: string; everyInterface: boolean }, { api, printed, where }: { api: boolean; printed: boolean; where: string }): string {
  // The first key is printed on the very first start only: a restart says how to get another.
  const hint = api && !printed && !config.adminKey ? `No key is printed after the first start; to get one, run beside this server:  npx kbqa keys create --name me\n` : '';
  // The address really bound: loopback unless HOST opened it, and then the line says so.
  const open = http.everyInterface ? `Listening on every interface (HOST=${config.host}): whoever reaches this machine reaches it.\n` : '';
  const listening = api ? `KBQA listening on ${http.origin}/v1${where}\nConsole: ${http.origin}/\n` : `KBQA ${role} running; health on ${http.origin}/readyz${where}\n`;
  return listening + open + hint;
}

/**
 * Removes the temporary files of uploads a killed process left in the files blob store. Here, once
 * this process holds the data directory, and not where the store is opened: a one-off command
 * (`kbqa keys create`) opens it beside a running server, whose uploads in progress are there too.
 */
async function sweepUploadsCutShort(config: Config, logger: Logger) {
  const swept = await sweepStaleTempBlobs(join(config.dataDir, 'blobs'), new Date());
  if (swept > 0) logger.info({ swept }, 'removed temporary files of uploads cut short');
}

/** EADDRINUSE, said so that the user knows what to do. */
function portTaken(error: unknown, config: Config): Error | undefined {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== 'EADDRINUSE') return undefined;
  return new Error(`port ${config.port} on ${config.host} is taken by another process: set PORT to choose another (PORT=${config.port + 1} npm start)`);
}

/** Where a client on this machine reaches a server bound to `host`: every interface includes loopback. */
function clientHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** A one-off command's terminal shows its answer, not the runtime's info lines: warnings and errors only. */
export const quietLogger = () => createLogger({ logLevel: 'warn' });

/** One-off commands write through the API's services; beside a distributed cluster they start no consumers. */
export const toolRole = (config: Config): Role => (usesDataDir(config.distributed) ? 'all' : 'api');

export async function createKey(
  config: Config,
  options: { workspace: string; name: string; scopes: string; knowledgeBases?: string; expiresAt?: string },
) {
  const runtime = await createRuntime(config, quietLogger(), undefined, { role: toolRole(config) });
  try {
    const scopes = options.scopes.split(',').map((s) => ApiKeyScope.parse(s.trim()));
    const kbs = options.knowledgeBases ? options.knowledgeBases.split(',').map((s) => s.trim()) : null;
    const exists = await runtime.readModels.get('workspaces', options.workspace);
    if (!exists) throw new Error(`no workspace '${options.workspace}' (create it with: kbqa workspaces create ${options.workspace})`);
    const { key, secret } = await createApiKey(
      runtime.ctx,
      options.workspace,
      { name: options.name, scopes, knowledge_base_ids: kbs, expires_at: options.expiresAt ?? null },
      { actor: 'cli' },
    );
    process.stdout.write(`${JSON.stringify({ ...key, secret }, null, 2)}\n`);
  } finally {
    await runtime.close();
  }
}

export async function createWorkspace(config: Config, workspaceId: string) {
  const problem = workspaceIdProblem(workspaceId);
  if (problem) throw new Error(problem);
  const runtime = await createRuntime(config, quietLogger(), undefined, { role: toolRole(config) });
  try {
    const secret = await createWorkspaceWithAdminKey(runtime.ctx, workspaceId);
    if (secret === null) throw new Error(`workspace '${workspaceId}' already exists`);
    process.stdout.write(`Created workspace '${workspaceId}'. Its admin API key (shown once):\n\n    ${secret}\n`);
  } finally {
    await runtime.close();
  }
}

/** Opens the stores without starting any consumer: replay and reindex run beside nothing that writes. */
async function withInfrastructure<T>(config: Config, purpose: string, body: (infra: Infrastructure) => Promise<T>): Promise<T> {
  const release = usesDataDir(config.distributed) ? lockDataDir(config.dataDir, purpose, { alone: true }) : () => {};
  const infra = await openInfrastructure(config, createLogger({ logLevel: 'warn' }));
  try {
    return await body(infra);
  } finally {
    await infra.close();
    release();
  }
}

export async function replay(config: Config, options: { restart: boolean }) {
  await withInfrastructure(config, 'replay', async ({ store, readModels, checkpoints, perStreamOrder }) => {
    const bar = progressBar('replaying');
    const started = performance.now();
    const result = await replayReadModels({
      store,
      readModels,
      checkpoints,
      projections: allProjections,
      trackStreams: perStreamOrder,
      restart: options.restart,
      onProgress: (p) => bar.update(Number(p.position), Number(p.head)),
    });
    const seconds = (performance.now() - started) / 1000;
    const resumed = result.resumedFrom > 0n ? ` (resumed from position ${result.resumedFrom})` : '';
    bar.done(`replayed ${result.events} events into ${allProjections.length} read models in ${seconds.toFixed(2)} s${resumed}`);
  });
}

export async function reindex(config: Config, options: { knowledgeBase: string; restart: boolean }) {
  await withInfrastructure(config, 'reindex', async ({ store, readModels, indexes, analyzer, secrets }) => {
    const bar = progressBar(`re-embedding ${options.knowledgeBase}`);
    const started = performance.now();
    const result = await reindexKnowledgeBase({
      store,
      readModels,
      vectors: indexes.vectors,
      passages: indexes.passages,
      embedders: (await createModels(config, analyzer)).embedders,
      workspaceModels: createWorkspaceModelResolver({ readModels, secrets, ...providerModelFactories(config) }),
      knowledgeBaseId: options.knowledgeBase,
      restart: options.restart,
      onProgress: (p) => bar.update(p.documents, p.totalDocuments),
    });
    const seconds = (performance.now() - started) / 1000;
    bar.done(`re-embedded ${result.chunks} chunks of ${result.documents} documents in ${seconds.toFixed(2)} s${result.resumed ? ' (resumed)' : ''}`);
  });
}

export async function demo(config: Config, options: { key?: string; url?: string }) {
  if (!options.key) throw new Error('demo needs an API key with the write scope: --key KEY or KBQA_API_KEY (get one with: npx kbqa keys create --name me)');
  const url = (options.url ?? `http://${clientHost(config.host)}:${config.port}`).replace(/\/+$/, '');
  // Progress and hints go to stderr, so `KB=$(npx kbqa demo …)` captures the id alone.
  const say = (line: string) => process.stderr.write(`${line}\n`);
  const { knowledgeBaseId } = await loadDemo({ url, key: options.key, timeoutMs: 120_000, say });
  for (const line of demoHints(url, knowledgeBaseId)) say(line);
  process.stdout.write(`${knowledgeBaseId}\n`);
}
