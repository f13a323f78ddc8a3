import { presentKey, revokeApiKey } from '../app/services/api-keys.ts';
import type { ApiKeyDoc } from '../../projections/api-keys/index.ts';
import type { Config } from '../config.ts';
import { createRuntime } from '../main.ts';
import { quietLogger, toolRole } from './commands.ts';

/** `kbqa keys list`: a workspace's keys (revoked ones with --all), never a secret or a hash. */
export async function listKeys(config: Config, options: { workspace: string; all: boolean; json: boolean }) {
  const runtime = await createRuntime(config, quietLogger(), undefined, { role: toolRole(config) });
  try {
    await workspaceExists(runtime.readModels, options.workspace);
    const where: Record<string, string | null> = options.all ? { workspace_id: options.workspace } : { workspace_id: options.workspace, revoked_at: null };
    const keys = (await runtime.readModels.find<ApiKeyDoc>('api_keys', { where, order: 'asc' })).map(presentKey);
    if (options.json) return void process.stdout.write(`${JSON.stringify(keys, null, 2)}\n`);
    if (keys.length === 0) return void process.stdout.write(`no keys in workspace '${options.workspace}' (make one with: kbqa keys create --name me)\n`);
    const rows = keys.map((k) => [
      k.id,
      k.name,
      `${k.prefix}…`,
      k.scopes.join(','),
      k.knowledge_base_ids?.join(',') ?? 'all',
      k.created_at.slice(0, 19).replace('T', ' '),
      k.revoked_at ? `revoked ${k.revoked_at.slice(0, 10)}` : k.expires_at ? `expires ${k.expires_at.slice(0, 10)}` : 'active',
    ]);
    process.stdout.write(table(['ID', 'NAME', 'PREFIX', 'SCOPES', 'KNOWLEDGE BASES', 'CREATED (UTC)', 'STATE'], rows));
  } finally {
    await runtime.close();
  }
}

/** `kbqa keys revoke <id>`: a running server beside it refuses the key as soon as it projects the revocation. */
export async function revokeKey(config: Config, keyId: string) {
  const runtime = await createRuntime(config, quietLogger(), undefined, { role: toolRole(config) });
  try {
    const key = await runtime.readModels.get<ApiKeyDoc>('api_keys', keyId);
    if (!key) throw new Error(`no key '${keyId}' (see: kbqa keys list)`);
    if (key.revoked_at) throw new Error(`key '${keyId}' was revoked at ${key.revoked_at}`);
    const principal = { keyId: 'cli', workspaceId: key.workspace_id, scopes: ['admin' as const], knowledgeBaseIds: null };
    await revokeApiKey(runtime.ctx, principal, keyId);
    process.stdout.write(`revoked ${keyId} (${key.name}) in workspace '${key.workspace_id}'\n`);
  } finally {
    await runtime.close();
  }
}

async function workspaceExists(readModels: { get(collection: string, id: string): Promise<unknown> }, workspace: string) {
  if (!(await readModels.get('workspaces', workspace))) throw new Error(`no workspace '${workspace}' (create it with: kbqa workspaces create ${workspace})`);
}

/** Columns padded to their widest cell, two spaces apart. */
function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [header, ...rows].map((cells) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n') + '\n';
}
