import { allProjections } from '../../projections/index.ts';
import { lockDataDir } from '../adapters/sqlite/data-dir-lock.ts';
import { replayReadModels } from '../app/replay.ts';
import { createApiKey } from '../app/services/api-keys.ts';
import { bootstrap, createWorkspaceWithAdminKey, DEFAULT_WORKSPACE } from '../app/services/workspaces.ts';
import { ApiKeyScope } from '../../schemas/events/api-key.ts';
import type { Config } from '../config.ts';
import { createLogger, createRuntime, listen } from '../main.ts';
import { progressBar } from './progress.ts';

export async function serve(config: Config) {
  const logger = createLogger(config);
  const release = lockDataDir(config.dataDir, 'serve');
  const runtime = await createRuntime(config, logger);
  const printed = await bootstrap(runtime.ctx, config.adminKey);
  if (printed) {
    process.stdout.write(
      `\nCreated workspace '${DEFAULT_WORKSPACE}' with an admin API key. It is shown this once; keep it:\n\n    ${printed}\n\n`,
    );
  }
  const http = await listen(runtime, config);
  process.stdout.write(`KBQA listening on http://localhost:${http.port}/v1 (data in ${config.dataDir})\n`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    await http.close();
    release();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

export async function createKey(
  config: Config,
  options: { workspace: string; name: string; scopes: string; knowledgeBases?: string; expiresAt?: string },
) {
  const runtime = await createRuntime(config);
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
  const runtime = await createRuntime(config);
  try {
    const secret = await createWorkspaceWithAdminKey(runtime.ctx, workspaceId);
    if (secret === null) throw new Error(`workspace '${workspaceId}' already exists`);
    process.stdout.write(`Created workspace '${workspaceId}'. Its admin API key (shown once):\n\n    ${secret}\n`);
  } finally {
    await runtime.close();
  }
}

export async function replay(config: Config) {
  const release = lockDataDir(config.dataDir, 'replay');
  const runtime = await createRuntime(config);
  try {
    const bar = progressBar('replaying');
    // The live projector must not write while the read models are rebuilt under it.
    await runtime.ctx.projector.stop();
    const started = performance.now();
    const result = await replayReadModels({
      store: runtime.store,
      readModels: runtime.readModels,
      projections: allProjections,
      onProgress: (p) => bar.update(Number(p.position), Number(p.head)),
    });
    const seconds = (performance.now() - started) / 1000;
    bar.done(`replayed ${result.events} events into ${allProjections.length} read models in ${seconds.toFixed(2)} s`);
  } finally {
    await runtime.close();
    release();
  }
}
