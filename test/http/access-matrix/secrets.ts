import { randomBytes } from 'node:crypto';
import { type Caller, type Recipe, type Target, type World } from './recipe.ts';

/**
 * The access matrix's recipes for the secrets capability's routes (see recipe.ts for what a recipe
 * says). Secrets belong to the whole workspace: a key limited to some knowledge bases is refused
 * (403) before anything is looked up, as it is when creating a knowledge base; another workspace's
 * secret is not there (404).
 */
const workspaceWide = (c: Caller, ok: number) => (c.limitedTo !== null ? 403 : ok);
const freshName = () => `matrix-${randomBytes(6).toString('hex')}`;

async function freshSecret(t: Target, w: World): Promise<string> {
  const name = freshName();
  const res = await w.server.call('POST', '/v1/secrets', { key: t.admin, json: { name, value: `matrix-value-${name}` } });
  if (res.status !== 201) throw new Error(`the matrix's secret answered ${res.status}`);
  return name;
}

export const recipes: Record<string, Recipe[]> = {
  'POST /v1/secrets': [
    {
      via: 'global',
      ok: 201,
      globalStatus: (c) => workspaceWide(c, 201),
      request: () => ({ method: 'POST', path: '/v1/secrets', json: { name: freshName(), value: 'a value made in the matrix' } }),
    },
  ],
  'GET /v1/secrets': [{ via: 'global', ok: 200, globalStatus: (c) => workspaceWide(c, 200), request: () => ({ method: 'GET', path: '/v1/secrets?limit=100' }) }],
  'PATCH /v1/secrets/{name}': [
    {
      via: 'owned',
      ok: 200,
      statusFor: (c, t) => workspaceWide(c, c.workspace !== t.workspace ? 404 : 200),
      request: async (t, w) => ({ method: 'PATCH', path: `/v1/secrets/${await freshSecret(t, w)}`, json: { allowed_hosts: ['api.example.com'] } }),
    },
  ],
  'DELETE /v1/secrets/{name}': [
    {
      via: 'owned',
      ok: 200,
      statusFor: (c, t) => workspaceWide(c, c.workspace !== t.workspace ? 404 : 200),
      request: async (t, w) => ({ method: 'DELETE', path: `/v1/secrets/${await freshSecret(t, w)}` }),
    },
  ],
};
