import test, { type ExecutionContext } from 'ava';
import { createWorkspaceWithAdminKey } from '../../src/app/services/workspaces.ts';
import { uploadedFileId } from '../helpers/documents.ts';
import { LOOPBACK_PROVIDERS } from '../helpers/provider-servers.ts';
import { ADMIN_KEY, startServer } from '../helpers/server.ts';
import {
  type Caller,
  expectedStatus,
  KEY_KINDS,
  type Kb,
  type Owned,
  type KeyKind,
  mayRead,
  QUESTION,
  type Recipe,
  type Request,
  RESOURCE_KINDS,
  type ResourceKind,
  type Scope,
  type Target,
  type Workspace,
  type World,
} from './access-matrix/recipe.ts';
import { DERIVATIONS, ITEM_FIELD, ITEM_FIELDS, snapshot, watchesEffects } from './access-matrix/effects.ts';
import { CAPABILITIES } from '../../src/capabilities/index.ts';
import { routesOf } from '../../src/capabilities/describe-api.ts';
import { openApiPath } from '../../src/http/openapi.ts';

/** Each capability's recipes, from the file named as it is (access-matrix/<name>.ts), and the service's own routes'. */
const RECIPE_FILES = await Promise.all(
  [...CAPABILITIES.filter((c) => c.routes).map((c) => c.name), 'operations'].map(async (name) => {
    const file = new URL(`./access-matrix/${name}.ts`, import.meta.url);
    const recipes = await import(file.href).then((m: { recipes: Record<string, Recipe[]> }) => m.recipes, () => null);
    return { name, recipes };
  }),
);
const ALL_RECIPES: Record<string, Recipe[]> = Object.assign({}, ...RECIPE_FILES.map((f) => f.recipes ?? {}));

/**
 * Every route of the route table (read from the OpenAPI document it generates) × every kind of
 * key × every kind of resource: the status is the one the access rule gives, and no byte of a
 * knowledge base the key may not read (its marker, planted in names and text) is in the body or
 * the stream. A route without a recipe in access-matrix/<capability>.ts fails the first tests: a new
 * route must say there how it is reached.
 */

let world: World;
let routes: { key: string; scope: Scope | null }[];
/** Each route's request body as the OpenAPI document describes it. */
let requestBodies: Map<string, unknown>;

test.before(async () => {
  const server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0', KBQA_CONSOLE_SIGNINS_PER_MINUTE: '0', KBQA_LANDING_MESSAGES_PER_MINUTE: '0', ...LOOPBACK_PROVIDERS });
  const other = await createWorkspaceWithAdminKey(server.runtime.ctx, 'other-workspace');
  const admins: Record<Workspace, string> = { main: ADMIN_KEY, other: other! };
  const ok = async (method: string, path: string, key: string, json?: unknown) => {
    const res = await server.call(method, path, { key, json });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  /** A conversation with one chat over the knowledge base: it then needs that base to be read. */
  const converse = async (admin: string, kbId: string, metadata: Record<string, string> = {}): Promise<Owned> => {
    const conv = await ok('POST', '/v1/conversations', admin, { metadata });
    const chat = await ok('POST', '/v1/chat/completions', admin, { model: 'kbqa-extractive', knowledge_base_id: kbId, conversation: conv.id, messages: [{ role: 'user', content: QUESTION }] });
    const items = await ok('GET', `/v1/conversations/${conv.id}/items?order=asc`, admin);
    return { conversationId: conv.id, chatId: chat.id, answerItemId: items.data[1].id };
  };
  const uploadFile = (key: string, name: string, text: string) => uploadedFileId(server.url, key, name, text);
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
    const conversation = await converse(admin, kb.id, { topic: marker });
    const fileId = await uploadFile(admin, 'planted.md', `A planted file, ${Math.random()}.`);
    return { id: kb.id, workspace, marker, documentId: doc.id, workflowId: wf.id, runId: run.id, conversation, fileId };
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
      return { id: kb.id, workspace, marker: `unmarked-${kb.id}`, documentId: '', workflowId: '', runId: '', conversation: { conversationId: '', chatId: '', answerItemId: '' }, fileId: '' };
    },
    async freshDocument(t) {
      const text = `A document to delete, ${Math.random()}.`;
      return (await ok('POST', `/v1/knowledge-bases/${t.kb.id}/documents`, t.admin, { name: 'delete-me.txt', text })).data[0].id;
    },
    async freshWorkflow(t) {
      return (await ok('POST', '/v1/workflows', t.admin, { name: 'to be deleted', template: 'knowledge-qa', knowledge_base_id: t.kb.id })).id;
    },
    freshConversation: (t) => converse(t.admin, t.kb.id),
    async freshTwinFile(t, caller) {
      const text = `Bytes shared by a document and a file, ${Math.random()}.`;
      await ok('POST', `/v1/knowledge-bases/${t.kb.id}/documents`, t.admin, { name: 'twin.md', text });
      const uploader = !caller.invalid && caller.scope !== 'read' ? caller.secret : admins[caller.workspace];
      return uploadFile(uploader, 'twin.md', text);
    },
    async freshKey(t) {
      return (await ok('POST', '/v1/api-keys', t.admin, { name: 'to be revoked', scopes: ['read'], knowledge_base_ids: [t.kb.id] })).id;
    },
  };
  const openApi = (await server.call('GET', '/v1/openapi.json', { key: null })).body;
  requestBodies = new Map(
    Object.entries(openApi.paths as Record<string, Record<string, { requestBody?: unknown }>>).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op.requestBody] as const),
    ),
  );
  routes = Object.entries(openApi.paths as Record<string, Record<string, { 'x-required-scope'?: Scope }>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, scope: op['x-required-scope'] ?? null })),
  );
});
test.after.always(() => world?.server.close());

test.serial("every capability with routes has its recipe file, access-matrix/<name>.ts, with a recipe for each of its routes and no other's", (t) => {
  t.deepEqual(RECIPE_FILES.filter((f) => f.recipes === null).map((f) => f.name), [], 'capabilities without test/http/access-matrix/<name>.ts');
  for (const capability of CAPABILITIES) {
    const keys = routesOf(capability).map((r) => `${r.method.toUpperCase()} ${openApiPath(r.path)}`);
    const recipes = RECIPE_FILES.find((f) => f.name === capability.name)?.recipes ?? {};
    t.deepEqual(Object.keys(recipes).sort(), keys.sort(), `access-matrix/${capability.name}.ts holds the recipes of ${capability.name}'s routes`);
  }
});

test.serial('every route of the route table is in the matrix, and every recipe names a route', (t) => {
  const table = routes.map((r) => r.key).sort();
  t.deepEqual(
    table.filter((key) => !ALL_RECIPES[key]),
    [],
    'routes without a recipe: say in test/http/access-matrix/<capability>.ts how each reaches its knowledge base',
  );
  t.deepEqual(Object.keys(ALL_RECIPES).filter((key) => !table.includes(key)), [], 'recipes for routes that no longer exist');
});

/** One request: status and body, a stream read to its end, or to the text `until` names for one that stays open. */
async function send(caller: Caller, request: Request): Promise<{ status: number; text: string }> {
  const response = await fetch(world.server.url + request.path, {
    method: request.method,
    headers: { authorization: `Bearer ${caller.secret}`, ...(request.json !== undefined && { 'content-type': 'application/json' }), ...request.headers },
    body: request.json === undefined ? undefined : JSON.stringify(request.json),
    signal: AbortSignal.timeout(30_000),
  });
  if (!request.until || !response.ok) return { status: response.status, text: await response.text() };
  const body = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes(request.until)) {
    const chunk = await body.read();
    if (chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  await body.cancel();
  return { status: response.status, text };
}

/** The status to expect, and for a route that refuses in its body (MCP), the error code that body must carry instead of a 403 or 404. */
function expectation(recipe: Recipe, rule: number): { expected: number; refusal: RegExp | null } {
  if (!recipe.refusesInBody || (rule !== 403 && rule !== 404)) return { expected: rule, refusal: null };
  return { expected: 200, refusal: rule === 403 ? /knowledge_base_not_allowed/ : /knowledge_base_not_found/ };
}

/** One cell of the matrix: a recipe of a route, asked by one kind of key about one kind of resource. */
type Case = { routeKey: string; scope: Scope | null; recipe: Recipe; kind: KeyKind; resource: ResourceKind | null };

/** Sends the request; for a write by a limited or foreign key, with what it may not change read before and after (empty otherwise). */
async function sendWatchingEffects(caller: Caller, request: Request) {
  if (!watchesEffects(caller, request)) return { ...(await send(caller, request)), before: '', after: '' };
  const before = await snapshot(world, caller);
  const answer = await send(caller, request);
  return { ...answer, before, after: await snapshot(world, caller) };
}

async function runCase(t: ExecutionContext, { routeKey, scope, recipe, kind, resource }: Case) {
  let target: Target | null = null;
  let limitTo = world.kbs.own_kb.id;
  if (resource) {
    const base = world.kbs[resource];
    const kb = recipe.ownIsTarget ? await world.freshKb(base.workspace) : base;
    if (recipe.ownIsTarget && resource === 'own_kb') limitTo = kb.id;
    target = { kb, workspace: kb.workspace, admin: world.admins[kb.workspace] };
  }
  const caller = await world.caller(kind, limitTo);
  const request = await recipe.request(target ?? { kb: world.kbs.own_kb, workspace: 'main', admin: ADMIN_KEY }, world, caller);
  const { status, text, before, after } = await sendWatchingEffects(caller, request);
  const { expected, refusal } = expectation(recipe, expectedStatus(recipe, caller, target, scope));
  const what = `${routeKey}${recipe.label ? ` (${recipe.label})` : ''} as ${kind} on ${resource ?? 'no resource'}`;
  t.is(status, expected, `${what}: ${text.slice(0, 300)}`);
  if (refusal) t.regex(text, refusal, `${what}: the refusal is missing`);
  for (const kb of Object.values(world.kbs)) {
    if (!mayRead(caller, kb)) t.false(text.includes(kb.marker), `${what}: leaks ${kb.marker}`);
  }
  t.is(after, before, `${what}: changed what the key may not change`);
  const success = status < 300 && !refusal;
  if (success && recipe.reveals && target) t.true(text.includes(target.kb.marker), `${what}: the content is missing`);
  if (success && recipe.lists) {
    for (const kb of Object.values(world.kbs)) if (mayRead(caller, kb)) t.true(text.includes(kb.marker), `${what}: ${kb.marker} is missing from the list`);
  }
}

for (const [routeKey, recipes] of Object.entries(ALL_RECIPES)) {
  test.serial(`access matrix: ${routeKey}`, async (t) => {
    const scope = routes.find((r) => r.key === routeKey)?.scope ?? null;
    for (const recipe of recipes) {
      const resources = recipe.via === 'kb' || recipe.via === 'owned' ? RESOURCE_KINDS : [null];
      for (const kind of Object.keys(KEY_KINDS) as KeyKind[]) {
        for (const resource of resources) await runCase(t, { routeKey, scope, recipe, kind, resource });
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

test.serial('every request field that names a stored item to build from is a derivation of the matrix, or says why not', (t) => {
  const found = routes.flatMap(({ key }) => [...new Set([...JSON.stringify(requestBodies.get(key) ?? {}).matchAll(ITEM_FIELD)].map((m) => m[1]!))].map((field) => `${key} ${field}`));
  t.deepEqual(found.filter((f) => !ITEM_FIELDS[f]).sort(), [], 'list each in ITEM_FIELDS (access-matrix-effects.ts): a derivation with its recipe in DERIVATIONS, or why it is none');
  for (const [field, kind] of Object.entries(ITEM_FIELDS)) {
    if (kind === 'derivation') t.true(Object.keys(DERIVATIONS).some((d) => d.startsWith(`${field}:`)), `${field}: no recipe in DERIVATIONS`);
  }
});

for (const [name, derive] of Object.entries(DERIVATIONS)) {
  test.serial(`provenance: ${name}, built from another knowledge base, is not for keys limited to the one searched`, async (t) => {
    const { own_kb: searched, other_kb: source } = world.kbs;
    const request = await derive(world, source, searched);
    for (const kind of ['read_kb', 'write_kb', 'admin_kb'] as const) {
      const caller = await world.caller(kind);
      const { status, text } = await send(caller, request);
      t.true(status === 403 || status === 404, `${name} as ${kind}: ${status} ${text.slice(0, 300)}`);
      t.false(text.includes(source.marker), `${name} as ${kind}: leaks ${source.marker}`);
    }
    const { status, text } = await send(await world.caller('admin'), request);
    t.true(status < 300, `${name} as admin: ${status} ${text.slice(0, 300)}`);
  });
}
