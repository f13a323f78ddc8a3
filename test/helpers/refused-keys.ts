import { createWorkspaceWithAdminKey } from '../../src/app/services/workspaces.ts';
import type { TestServer } from './server.ts';

/** Keys a workspace-wide admin route must refuse: a read key, a write key, an admin key limited to a knowledge base, and another workspace's admin. */
export type RefusedKeys = { read: string; write: string; limitedAdmin: string; other: string };

export async function keysToRefuse(server: TestServer, otherWorkspace: string): Promise<RefusedKeys> {
  const key = async (json: unknown) => (await server.call('POST', '/v1/api-keys', { json })).body.secret as string;
  const kb = (await server.call('POST', '/v1/knowledge-bases', { json: { name: 'limits' } })).body.id as string;
  return {
    read: await key({ name: 'read', scopes: ['read'] }),
    write: await key({ name: 'write', scopes: ['write'] }),
    limitedAdmin: await key({ name: 'limited admin', scopes: ['admin'], knowledge_base_ids: [kb] }),
    other: (await createWorkspaceWithAdminKey(server.runtime.ctx, otherWorkspace))!,
  };
}
