import test, { type ExecutionContext } from 'ava';
import { createWorkspaceWithAdminKey } from '../../src/app/services/workspaces.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';

/**
 * Every route of the route table (read from the OpenAPI document it generates) × every kind of
 * key × every kind of resource: the status is the one the access rule gives, and no byte of a
 * knowledge base the key may not read (its marker, planted in names and text) is in the body or
 * the stream. A route without a recipe below fails the first test: a new route must say here
 * how it is reached.
 */

type Scope = 'admin' | 'write' | 'read';
type Workspace = 'main' | 'other';
type KeyKind = 'admin' | 'write' | 'read' | 'admin_kb' | 'write_kb' | 'read_kb' | 'expired' | 'revoked' | 'other_workspace';
type ResourceKind = 'own_kb' | 'other_kb' | 'other_workspace';

const KEY_KINDS: Record<KeyKind, { scope: Scope; workspace: Workspace; limited: boolean; invalid: boolean }> = {
  admin: { scope: 'admin', workspace: 'main', limited: false, invalid: false },
  write: { scope: 'write', workspace: 'main', limited: false, invalid: false },
  read: { scope: 'read', workspace: 'main', limited: false, invalid: false },
  admin_kb: { scope: 'admin', workspace: 'main', limited: true, invalid: false },
  write_kb: { scope: 'write', workspace: 'main', limited: true, invalid: false },
  read_kb: { scope: 'read', workspace: 'main', limited: true, invalid: false },
  expired: { scope: 'write', workspace: 'main', limited: false, invalid: true },
  revoked: { scope: 'write', workspace: 'main', limited: false, invalid: true },
  other_workspace: { scope: 'admin', workspace: 'other', limited: false, invalid: false },
};
const RESOURCE_KINDS: ResourceKind[] = ['own_kb', 'other_kb', 'other_workspace'];
const RANK: Record<Scope, number> = { read: 1, write: 2, admin: 3 };

/** A knowledge base with one of everything in it, each carrying the base's marker. */
type Kb = { id: string; workspace: Workspace; marker: string; documentId: string; workflowId: string; runId: string };

/** Who asks: the key's secret and what it may reach. */
type Caller = { kind: KeyKind; secret: string; scope: Scope; workspace: Workspace; limitedTo: string | null; invalid: boolean };

/** What a case aims at: a knowledge base and the workspace it lives in. */
type Target = { kb: Kb; workspace: Workspace; admin: string };

type Request = { method: string; path: string; json?: unknown };

type Recipe = {
  /** How the route reaches its knowledge base: by its id (path or body), by an owned resource's id, or not at all. */
  via: 'kb' | 'owned' | 'global' | 'public';
  ok: number;
  label?: string;
  request(target: Target, world: World): Promise<Request> | Request;
  /** The body names the target's marker when the key may read it (the content really is there). */
  reveals?: boolean;
  /** A list: it shows the marker of every knowledge base the key may read, and no other. */
  lists?: boolean;
  /** Limited keys are limited to the target itself when the resource is "own" (a fresh one, for deletes). */
  ownIsTarget?: boolean;
  /** The status for a global route when it depends on more than the scope. */
  globalStatus?(caller: Caller): number;
};

type World = {
  server: TestServer;
  admins: Record<Workspace, string>;
  kbs: Record<ResourceKind, Kb>;
  caller(kind: KeyKind, limitedTo?: string): Promise<Caller>;
  freshKb(workspace: Workspace): Promise<Kb>;
  freshDocument(target: Target): Promise<string>;
  freshWorkflow(target: Target): Promise<string>;
  freshKey(target: Target): Promise<string>;
};

const QUESTION = 'What is the vault code of the archive?';
const chat = (target: Target, stream: boolean) => ({ model: 'kbqa-extractive', knowledge_base_id: target.kb.id, stream, messages: [{ role: 'user', content: QUESTION }] });
const kbPath = (target: Target) => `/v1/knowledge-bases/${target.kb.id}`;
const docPath = (target: Target) => `${kbPath(target)}/documents/${target.kb.documentId}`;

const RECIPES: Record<string, Recipe[]> = {
  'GET /healthz': [{ via: 'public', ok: 200, request: () => ({ method: 'GET', path: '/healthz' }) }],
  'GET /readyz': [{ via: 'public', ok: 200, request: () => ({ method: 'GET', path: '/readyz' }) }],
  'GET /metrics': [{ via: 'public', ok: 200, request: () => ({ method: 'GET', path: '/metrics' }) }],
  'GET /v1/openapi.json': [{ via: 'public', ok: 200, request: () => ({ method: 'GET', path: '/v1/openapi.json' }) }],
  'GET /v1/models': [{ via: 'global', ok: 200, request: () => ({ method: 'GET', path: '/v1/models' }) }],
  'GET /v1/models/{model}': [{ via: 'global', ok: 200, request: () => ({ method: 'GET', path: '/v1/models/kbqa-extractive' }) }],
  'POST /v1/api-keys': [
    {
      via: 'kb',
      ok: 201,
      request: (t) => ({ method: 'POST', path: '/v1/api-keys', json: { name: 'made in the matrix', scopes: ['read'], knowledge_base_ids: [t.kb.id] } }),
    },
  ],
  'GET /v1/api-keys': [{ via: 'global', ok: 200, lists: true, request: () => ({ method: 'GET', path: '/v1/api-keys?limit=100&order=asc' }) }],
  'DELETE /v1/api-keys/{key_id}': [{ via: 'owned', ok: 200, request: async (t, w) => ({ method: 'DELETE', path: `/v1/api-keys/${await w.freshKey(t)}` }) }],
  'POST /v1/knowledge-bases': [
    {
      via: 'global',
      ok: 201,
      globalStatus: (c) => (c.limitedTo !== null ? 403 : 201),
      request: () => ({ method: 'POST', path: '/v1/knowledge-bases', json: { name: 'made in the matrix' } }),
    },
  ],
  'GET /v1/knowledge-bases': [{ via: 'global', ok: 200, lists: true, request: () => ({ method: 'GET', path: '/v1/knowledge-bases?limit=100&order=asc' }) }],
  'GET /v1/knowledge-bases/{kb_id}': [{ via: 'kb', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: kbPath(t) }) }],
  'PATCH /v1/knowledge-bases/{kb_id}': [{ via: 'kb', ok: 200, reveals: true, request: (t) => ({ method: 'PATCH', path: kbPath(t), json: { description: 'patched by the matrix' } }) }],
  'DELETE /v1/knowledge-bases/{kb_id}': [
    { via: 'kb', ok: 200, ownIsTarget: true, request: async (t) => ({ method: 'DELETE', path: kbPath(t) }) },
  ],
  'POST /v1/knowledge-bases/{kb_id}/documents': [
    { via: 'kb', ok: 202, request: (t) => ({ method: 'POST', path: `${kbPath(t)}/documents`, json: { name: 'upload.md', text: 'An upload made by the access matrix.' } }) },
  ],
  'GET /v1/knowledge-bases/{kb_id}/documents': [{ via: 'kb', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: `${kbPath(t)}/documents?limit=100` }) }],
  'GET /v1/knowledge-bases/{kb_id}/documents/{document_id}': [{ via: 'kb', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: docPath(t) }) }],
  'DELETE /v1/knowledge-bases/{kb_id}/documents/{document_id}': [
    { via: 'kb', ok: 200, request: async (t, w) => ({ method: 'DELETE', path: `${kbPath(t)}/documents/${await w.freshDocument(t)}` }) },
  ],
  'GET /v1/knowledge-bases/{kb_id}/documents/{document_id}/chunks': [{ via: 'kb', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: `${docPath(t)}/chunks` }) }],
  'GET /v1/knowledge-bases/{kb_id}/documents/{document_id}/events': [{ via: 'kb', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: `${docPath(t)}/events` }) }],
  'POST /v1/knowledge-bases/{kb_id}/search': [
    { via: 'kb', ok: 200, reveals: true, request: (t) => ({ method: 'POST', path: `${kbPath(t)}/search`, json: { query: QUESTION } }) },
  ],
  'POST /v1/chat/completions': [
    { via: 'kb', ok: 200, reveals: true, label: 'blocking', request: (t) => ({ method: 'POST', path: '/v1/chat/completions', json: chat(t, false) }) },
    { via: 'kb', ok: 200, reveals: true, label: 'streaming', request: (t) => ({ method: 'POST', path: '/v1/chat/completions', json: chat(t, true) }) },
    {
      via: 'global',
      ok: 200,
      label: 'no knowledge base',
      request: () => ({ method: 'POST', path: '/v1/chat/completions', json: { model: 'kbqa-extractive', messages: [{ role: 'user', content: QUESTION }] } }),
    },
  ],
  'POST /v1/chat': [{ via: 'kb', ok: 200, reveals: true, request: (t) => ({ method: 'POST', path: '/v1/chat', json: chat(t, false) }) }],
  'POST /v1/workflows': [
    { via: 'kb', ok: 201, request: (t) => ({ method: 'POST', path: '/v1/workflows', json: { name: 'made in the matrix', template: 'knowledge-qa', knowledge_base_id: t.kb.id } }) },
  ],
  'GET /v1/workflows': [{ via: 'global', ok: 200, lists: true, request: () => ({ method: 'GET', path: '/v1/workflows?limit=100&order=asc' }) }],
  'GET /v1/workflows/{workflow_id}': [{ via: 'owned', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: `/v1/workflows/${t.kb.workflowId}` }) }],
  'PUT /v1/workflows/{workflow_id}': [
    {
      via: 'owned',
      ok: 200,
      reveals: true,
      request: async (t, w) => {
        const { body } = await w.server.call('GET', `/v1/workflows/${t.kb.workflowId}`, { key: t.admin });
        return { method: 'PUT', path: `/v1/workflows/${t.kb.workflowId}`, json: { name: body.name, graph: body.graph } };
      },
    },
  ],
  'DELETE /v1/workflows/{workflow_id}': [{ via: 'owned', ok: 200, request: async (t, w) => ({ method: 'DELETE', path: `/v1/workflows/${await w.freshWorkflow(t)}` }) }],
  'POST /v1/workflows/{workflow_id}/run': (['blocking', 'streaming', 'async'] as const).map(
    (mode): Recipe => ({
      via: 'owned',
      ok: mode === 'async' ? 202 : 200,
      reveals: mode !== 'async',
      label: mode,
      request: (t) => ({ method: 'POST', path: `/v1/workflows/${t.kb.workflowId}/run`, json: { inputs: { question: QUESTION }, response_mode: mode } }),
    }),
  ),
  'GET /v1/workflow-runs/{run_id}': [{ via: 'owned', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: `/v1/workflow-runs/${t.kb.runId}` }) }],
};

/** The rule, stated once for the test: who may reach what, and which status says no. */
function expectedStatus(recipe: Recipe, caller: Caller, target: Target | null, scope: Scope | null): number {
  if (recipe.via === 'public') return recipe.ok;
  if (caller.invalid) return 401;
  if (scope && RANK[caller.scope] < RANK[scope]) return 403;
  if (recipe.via === 'global' || !target) return recipe.globalStatus?.(caller) ?? recipe.ok;
  const outsideLimit = caller.limitedTo !== null && caller.limitedTo !== target.kb.id;
  const foreign = caller.workspace !== target.workspace;
  // By a knowledge base's id the limit is checked first: a 403 that says nothing about existence.
  if (recipe.via === 'kb') return outsideLimit ? 403 : foreign ? 404 : recipe.ok;
  // By an owned resource's id, another workspace's is simply not there.
  return foreign ? 404 : outsideLimit ? 403 : recipe.ok;
}

const mayRead = (caller: Caller, kb: Kb) =>
  !caller.invalid && caller.workspace === kb.workspace && (caller.limitedTo === null || caller.limitedTo === kb.id);

let world: World;
let routes: { key: string; scope: Scope | null }[];

test.before(async () => {
  const server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0' });
  const other = await createWorkspaceWithAdminKey(server.runtime.ctx, 'other-workspace');
  const admins: Record<Workspace, string> = { main: ADMIN_KEY, other: other! };
  const ok = async (method: string, path: string, key: string, json?: unknown) => {
    const res = await server.call(method, path, { key, json });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const plant = async (workspace: Workspace, label: string): Promise<Kb> => {
    const admin = admins[workspace];
    const marker = `zq${label}marker${Math.random().toString(36).slice(2, 8)}`;
    const kb = await ok('POST', '/v1/knowledge-bases', admin, { name: `archive ${marker}` });
    const [doc] = (
      await ok('POST', `/v1/knowledge-bases/${kb.id}/documents`, admin, {
        name: `vault-${marker}.md`,
        text: `# The archive\n\nThe vault code of the archive is ${marker}. Nobody outside may read it.\n`,
      })
    ).data;
    for (let status = doc.status; status !== 'ready'; await new Promise((r) => setTimeout(r, 20))) {
      status = (await ok('GET', `/v1/knowledge-bases/${kb.id}/documents/${doc.id}`, admin)).status;
      if (status === 'failed') throw new Error(`the planted document of ${marker} failed`);
    }
    const wf = await ok('POST', '/v1/workflows', admin, { name: `workflow ${marker}`, template: 'knowledge-qa', knowledge_base_id: kb.id });
    const run = await ok('POST', `/v1/workflows/${wf.id}/run`, admin, { inputs: { question: QUESTION } });
    await ok('POST', '/v1/api-keys', admin, { name: `key ${marker}`, scopes: ['read'], knowledge_base_ids: [kb.id] });
    return { id: kb.id, workspace, marker, documentId: doc.id, workflowId: wf.id, runId: run.id };
  };
  const kbs = { own_kb: await plant('main', 'one'), other_kb: await plant('main', 'two'), other_workspace: await plant('other', 'three') };

  const callers = new Map<string, Caller>();
  const makeCaller = async (kind: KeyKind, limitedTo: string | null): Promise<Caller> => {
    const spec = KEY_KINDS[kind];
    const admin = admins[spec.workspace];
    const body = { name: `caller ${kind}`, scopes: [spec.scope], knowledge_base_ids: limitedTo && [limitedTo], expires_at: null as string | null };
    if (kind === 'expired') body.expires_at = new Date(Date.now() + 3_600_000).toISOString();
    const key = await ok('POST', '/v1/api-keys', admin, body);
    if (kind === 'revoked') await ok('DELETE', `/v1/api-keys/${key.id}`, admin);
    return { kind, secret: key.secret, scope: spec.scope, workspace: spec.workspace, limitedTo, invalid: spec.invalid };
  };
  const caller = async (kind: KeyKind, limitedTo = kbs.own_kb.id) => {
    const limit = KEY_KINDS[kind].limited ? limitedTo : null;
    const id = `${kind}:${limit}`;
    if (!callers.has(id)) callers.set(id, kind === 'admin' ? { kind, secret: ADMIN_KEY, scope: 'admin', workspace: 'main', limitedTo: null, invalid: false } : await makeCaller(kind, limit));
    return callers.get(id)!;
  };
  for (const kind of Object.keys(KEY_KINDS) as KeyKind[]) await caller(kind);
  // The expired key is past its expiry from here on; every other key has none.
  server.advanceClock(2 * 3_600_000);

  world = {
    server,
    admins,
    kbs,
    caller,
    async freshKb(workspace) {
      const kb = await ok('POST', '/v1/knowledge-bases', admins[workspace], { name: 'to be deleted' });
      return { id: kb.id, workspace, marker: `unmarked-${kb.id}`, documentId: '', workflowId: '', runId: '' };
    },
    async freshDocument(t) {
      const text = `A document to delete, ${Math.random()}.`;
      return (await ok('POST', `/v1/knowledge-bases/${t.kb.id}/documents`, t.admin, { name: 'delete-me.txt', text })).data[0].id;
    },
    async freshWorkflow(t) {
      return (await ok('POST', '/v1/workflows', t.admin, { name: 'to be deleted', template: 'knowledge-qa', knowledge_base_id: t.kb.id })).id;
    },
    async freshKey(t) {
      return (await ok('POST', '/v1/api-keys', t.admin, { name: 'to be revoked', scopes: ['read'], knowledge_base_ids: [t.kb.id] })).id;
    },
  };
  const openApi = (await server.call('GET', '/v1/openapi.json', { key: null })).body;
  routes = Object.entries(openApi.paths as Record<string, Record<string, { 'x-required-scope'?: Scope }>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, scope: op['x-required-scope'] ?? null })),
  );
});
test.after.always(() => world?.server.close());

test.serial('every route of the route table is in the matrix, and every recipe names a route', (t) => {
  const table = routes.map((r) => r.key).sort();
  t.deepEqual(
    table.filter((key) => !RECIPES[key]),
    [],
    'routes without a recipe: say in RECIPES how each reaches its knowledge base',
  );
  t.deepEqual(Object.keys(RECIPES).filter((key) => !table.includes(key)), [], 'recipes for routes that no longer exist');
});

/** One request: status and body, a stream read to its end (with a bound, for feeds that stay open). */
async function send(caller: Caller, request: Request): Promise<{ status: number; text: string }> {
  const response = await fetch(world.server.url + request.path, {
    method: request.method,
    headers: { authorization: `Bearer ${caller.secret}`, ...(request.json !== undefined && { 'content-type': 'application/json' }) },
    body: request.json === undefined ? undefined : JSON.stringify(request.json),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, text: await response.text() };
}

async function runCase(t: ExecutionContext, routeKey: string, scope: Scope | null, recipe: Recipe, kind: KeyKind, resource: ResourceKind | null) {
  let target: Target | null = null;
  let limitTo = world.kbs.own_kb.id;
  if (resource) {
    const base = world.kbs[resource];
    const kb = recipe.ownIsTarget ? await world.freshKb(base.workspace) : base;
    if (recipe.ownIsTarget && resource === 'own_kb') limitTo = kb.id;
    target = { kb, workspace: kb.workspace, admin: world.admins[kb.workspace] };
  }
  const caller = await world.caller(kind, limitTo);
  const request = await recipe.request(target ?? { kb: world.kbs.own_kb, workspace: 'main', admin: ADMIN_KEY }, world);
  const { status, text } = await send(caller, request);
  const expected = expectedStatus(recipe, caller, target, scope);
  const what = `${routeKey}${recipe.label ? ` (${recipe.label})` : ''} as ${kind} on ${resource ?? 'no resource'}`;
  t.is(status, expected, `${what}: ${text.slice(0, 300)}`);
  for (const kb of Object.values(world.kbs)) {
    if (!mayRead(caller, kb)) t.false(text.includes(kb.marker), `${what}: leaks ${kb.marker}`);
  }
  const success = status < 300;
  if (success && recipe.reveals && target) t.true(text.includes(target.kb.marker), `${what}: the content is missing`);
  if (success && recipe.lists) {
    for (const kb of Object.values(world.kbs)) if (mayRead(caller, kb)) t.true(text.includes(kb.marker), `${what}: ${kb.marker} is missing from the list`);
  }
}

for (const [routeKey, recipes] of Object.entries(RECIPES)) {
  test.serial(`access matrix: ${routeKey}`, async (t) => {
    const scope = routes.find((r) => r.key === routeKey)?.scope ?? null;
    for (const recipe of recipes) {
      const resources = recipe.via === 'kb' || recipe.via === 'owned' ? RESOURCE_KINDS : [null];
      for (const kind of Object.keys(KEY_KINDS) as KeyKind[]) {
        for (const resource of resources) await runCase(t, routeKey, scope, recipe, kind, resource);
      }
    }
  });
}

test.serial('a document asked for under another knowledge base than its own is not there', async (t) => {
  const { own_kb: own, other_kb: other } = world.kbs;
  const res = await world.server.call('GET', `/v1/knowledge-bases/${own.id}/documents/${other.documentId}`);
  t.is(res.status, 404);
  t.false(JSON.stringify(res.body).includes(other.marker));
  const limited = await world.caller('read_kb');
  const chunks = await world.server.call('GET', `/v1/knowledge-bases/${own.id}/documents/${other.documentId}/chunks`, { key: limited.secret });
  t.is(chunks.status, 404);
  t.false(JSON.stringify(chunks.body).includes(other.marker));
});
