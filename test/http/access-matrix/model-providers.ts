import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { type Caller, type Recipe, type Target, type World } from './recipe.ts';

/**
 * The access matrix's recipes for the model-providers capability's routes (see recipe.ts for what
 * a recipe says). Providers belong to the whole workspace, like secrets: a key limited to some
 * knowledge bases is refused (403) before anything is looked up; another workspace's provider is
 * not there (404).
 */
const workspaceWide = (c: Caller, ok: number) => (c.limitedTo !== null ? 403 : ok);
const byId = (c: Caller, t: Target) => workspaceWide(c, c.workspace !== t.workspace ? 404 : 200);
const freshName = () => `matrix-${randomBytes(6).toString('hex')}`;

/** A loopback provider whose /v1/models lists one model; unref'd, so it never keeps the test process alive. */
let provider: Promise<string> | undefined;
const providerUrl = () =>
  (provider ??= new Promise((resolve) => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'matrix-chat', object: 'model', owned_by: 'loopback' }] }));
    });
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}/v1`));
    server.unref();
  }));

const body = async () => ({ name: freshName(), base_url: await providerUrl(), api_key: 'sk-matrix-provider-key', models: [{ id: 'matrix-chat', type: 'chat' }] });

async function freshProvider(t: Target, w: World): Promise<string> {
  const res = await w.server.call('POST', '/v1/model-providers', { key: t.admin, json: await body() });
  if (res.status !== 201) throw new Error(`the matrix's model provider answered ${res.status}`);
  return res.body.id as string;
}

const owned = (method: string, suffix = '', json?: unknown): Recipe => ({
  via: 'owned',
  ok: 200,
  statusFor: byId,
  request: async (t, w) => ({ method, path: `/v1/model-providers/${await freshProvider(t, w)}${suffix}`, ...(json !== undefined && { json }) }),
});

export const recipes: Record<string, Recipe[]> = {
  'POST /v1/model-providers': [
    { via: 'global', ok: 201, globalStatus: (c) => workspaceWide(c, 201), request: async () => ({ method: 'POST', path: '/v1/model-providers', json: await body() }) },
  ],
  'GET /v1/model-providers': [
    { via: 'global', ok: 200, globalStatus: (c) => workspaceWide(c, 200), request: () => ({ method: 'GET', path: '/v1/model-providers?limit=100' }) },
  ],
  'GET /v1/model-providers/{provider_id}': [owned('GET')],
  'PATCH /v1/model-providers/{provider_id}': [owned('PATCH', '', { models: [] })],
  'DELETE /v1/model-providers/{provider_id}': [owned('DELETE')],
  'POST /v1/model-providers/{provider_id}/test': [owned('POST', '/test')],
  'POST /v1/model-providers/{provider_id}/discover': [owned('POST', '/discover')],
};
