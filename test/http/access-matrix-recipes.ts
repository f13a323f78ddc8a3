import type { TestServer } from '../helpers/server.ts';

/**
 * The access matrix's recipes (see access-matrix.http.test.ts): how each route of the route table
 * reaches a knowledge base, what it answers when allowed, and the access rule that says which
 * status each kind of key gets instead.
 */

export type Scope = 'admin' | 'write' | 'read';
export type Workspace = 'main' | 'other';
export type KeyKind = 'admin' | 'write' | 'read' | 'admin_kb' | 'write_kb' | 'read_kb' | 'expired' | 'revoked' | 'other_workspace';
export type ResourceKind = 'own_kb' | 'other_kb' | 'other_workspace';

export const KEY_KINDS: Record<KeyKind, { scope: Scope; workspace: Workspace; limited: boolean; invalid: boolean }> = {
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
export const RESOURCE_KINDS: ResourceKind[] = ['own_kb', 'other_kb', 'other_workspace'];
const RANK: Record<Scope, number> = { read: 1, write: 2, admin: 3 };

/** A knowledge base with one of everything in it, each carrying the base's marker. */
export type Kb = {
  id: string;
  workspace: Workspace;
  marker: string;
  documentId: string;
  workflowId: string;
  runId: string;
  /** A conversation whose chat searched the base (so it carries the base's marker), that chat's id, and the answer's item. */
  conversation: Owned;
  /** A file its workspace's admin uploaded (not the document's bytes): no limited key may delete it. */
  fileId: string;
};
/** A conversation whose only chat searched one knowledge base: the chat and its answer's item. */
export type Owned = { conversationId: string; chatId: string; answerItemId: string };

/** Who asks: the key's secret and what it may reach. */
export type Caller = { kind: KeyKind; secret: string; scope: Scope; workspace: Workspace; limitedTo: string | null; invalid: boolean };

/** What a case aims at: a knowledge base and the workspace it lives in. */
export type Target = { kb: Kb; workspace: Workspace; admin: string };

export type Request = { method: string; path: string; json?: unknown; headers?: Record<string, string> };

export type Recipe = {
  /** How the route reaches its knowledge base: by its id (path or body), by an owned resource's id, or not at all. */
  via: 'kb' | 'owned' | 'global' | 'public';
  ok: number;
  label?: string;
  request(target: Target, world: World, caller: Caller): Promise<Request> | Request;
  /** The body names the target's marker when the key may read it (the content really is there). */
  reveals?: boolean;
  /** A list: it shows the marker of every knowledge base the key may read, and no other. */
  lists?: boolean;
  /** Limited keys are limited to the target itself when the resource is "own" (a fresh one, for deletes). */
  ownIsTarget?: boolean;
  /**
   * The refusal is in a 200 body, not the status (an MCP tool or resource error): where the rule
   * says 403 or 404 the route answers 200 with the API's error code in the body instead.
   */
  refusesInBody?: boolean;
  /** By an owned resource's id, a key limited to other knowledge bases finds nothing (404) rather than being refused (403). */
  hidesOutsideLimit?: boolean;
  /** The status for a global route when it depends on more than the scope. */
  globalStatus?(caller: Caller): number;
  /** The status once the key is valid and has the scope, for a route that reaches the target only through its effects. */
  statusFor?(caller: Caller, target: Target): number;
};

export type World = {
  server: TestServer;
  admins: Record<Workspace, string>;
  kbs: Record<ResourceKind, Kb>;
  caller(kind: KeyKind, limitedTo?: string): Promise<Caller>;
  freshKb(workspace: Workspace): Promise<Kb>;
  freshDocument(target: Target): Promise<string>;
  freshWorkflow(target: Target): Promise<string>;
  freshKey(target: Target): Promise<string>;
  freshConversation(target: Target): Promise<Owned>;
  /** A new document of the target's knowledge base, and a file with its very bytes uploaded by the caller (by its workspace's admin when the caller may not upload). */
  freshTwinFile(target: Target, caller: Caller): Promise<string>;
};

export const QUESTION = 'What is the vault code of the archive?';
const respond = (target: Target, stream: boolean) => ({ model: 'kbqa-extractive', input: QUESTION, stream, tools: [{ type: 'file_search', vector_store_ids: [target.kb.id] }] });
/** A response stored over the target's knowledge base by its workspace's admin. */
const storedResponse = async (t: Target, w: World) => (await w.server.call('POST', '/v1/responses', { key: t.admin, json: respond(t, false) })).body.id as string;
const chat = (target: Target, stream: boolean) => ({ model: 'kbqa-extractive', knowledge_base_id: target.kb.id, stream, messages: [{ role: 'user', content: QUESTION }] });
/** One MCP message, as the streamable HTTP transport wants it: it insists on both media types in Accept. */
const mcp = (method: string, params: Record<string, unknown>): Request => ({
  method: 'POST',
  path: '/mcp',
  headers: { accept: 'application/json, text/event-stream' },
  json: { jsonrpc: '2.0', id: 1, method, params },
});
const mcpTool = (name: string, args: Record<string, unknown>) => mcp('tools/call', { name, arguments: args });
const kbPath = (target: Target) => `/v1/knowledge-bases/${target.kb.id}`;
const convPath = (target: Target) => `/v1/conversations/${target.kb.conversation.conversationId}`;
const docPath = (target: Target) => `${kbPath(target)}/documents/${target.kb.documentId}`;

export const RECIPES: Record<string, Recipe[]> = {
  'GET /healthz': [{ via: 'public', ok: 200, request: () => ({ method: 'GET', path: '/healthz' }) }],
  'GET /readyz': [{ via: 'public', ok: 200, request: () => ({ method: 'GET', path: '/readyz' }) }],
  'GET /metrics': [{ via: 'public', ok: 200, request: () => ({ method: 'GET', path: '/metrics' }) }],
  'GET /v1/openapi.json': [{ via: 'public', ok: 200, request: () => ({ method: 'GET', path: '/v1/openapi.json' }) }],
  'GET /v1/models': [{ via: 'global', ok: 200, request: () => ({ method: 'GET', path: '/v1/models' }) }],
  'GET /v1/models/{model}': [{ via: 'global', ok: 200, request: () => ({ method: 'GET', path: '/v1/models/kbqa-extractive' }) }],
  'POST /v1/embeddings': [{ via: 'global', ok: 200, request: () => ({ method: 'POST', path: '/v1/embeddings', json: { model: 'kbqa-hash-embed-512', input: QUESTION } }) }],
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
  // The matrix's document is text: a key that may read it reaches the 415 that says its pages cannot be drawn; others get their 401/403/404 first.
  'GET /v1/knowledge-bases/{kb_id}/documents/{document_id}/pages/{page}/image': [
    { via: 'kb', ok: 415, label: 'text has no page to draw', request: (t) => ({ method: 'GET', path: `${docPath(t)}/pages/1/image` }) },
  ],
  'GET /v1/knowledge-bases/{kb_id}/documents/{document_id}/events': [{ via: 'kb', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: `${docPath(t)}/events` }) }],
  'POST /v1/knowledge-bases/{kb_id}/search': [
    { via: 'kb', ok: 200, reveals: true, request: (t) => ({ method: 'POST', path: `${kbPath(t)}/search`, json: { query: QUESTION } }) },
  ],
  'POST /v1/search': [
    { via: 'kb', ok: 200, reveals: true, label: 'knowledge_base_id', request: (t) => ({ method: 'POST', path: '/v1/search', json: { query: QUESTION, knowledge_base_id: t.kb.id } }) },
    { via: 'kb', ok: 200, reveals: true, label: 'knowledge_base_ids', request: (t) => ({ method: 'POST', path: '/v1/search', json: { query: QUESTION, knowledge_base_ids: [t.kb.id] } }) },
  ],
  'POST /v1/chat/completions': [
    {
      via: 'kb',
      ok: 200,
      reveals: true,
      label: 'knowledge_base_ids',
      request: (t) => ({ method: 'POST', path: '/v1/chat/completions', json: { ...chat(t, false), knowledge_base_id: undefined, knowledge_base_ids: [t.kb.id] } }),
    },
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
  'POST /v1/responses': [
    { via: 'kb', ok: 200, reveals: true, label: 'blocking', request: (t) => ({ method: 'POST', path: '/v1/responses', json: respond(t, false) }) },
    { via: 'kb', ok: 200, reveals: true, label: 'streaming', request: (t) => ({ method: 'POST', path: '/v1/responses', json: respond(t, true) }) },
    { via: 'global', ok: 200, label: 'no knowledge base', request: () => ({ method: 'POST', path: '/v1/responses', json: { model: 'kbqa-extractive', input: QUESTION } }) },
  ],
  'GET /v1/responses/{response_id}': [
    { via: 'owned', ok: 200, reveals: true, hidesOutsideLimit: true, request: async (t, w) => ({ method: 'GET', path: `/v1/responses/${await storedResponse(t, w)}` }) },
  ],
  'DELETE /v1/responses/{response_id}': [
    { via: 'owned', ok: 200, hidesOutsideLimit: true, request: async (t, w) => ({ method: 'DELETE', path: `/v1/responses/${await storedResponse(t, w)}` }) },
  ],
  'GET /v1/responses/{response_id}/input_items': [
    { via: 'owned', ok: 200, hidesOutsideLimit: true, request: async (t, w) => ({ method: 'GET', path: `/v1/responses/${await storedResponse(t, w)}/input_items` }) },
  ],
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
  'POST /mcp': [
    { via: 'global', ok: 200, lists: true, label: 'list_knowledge_bases', request: () => mcpTool('list_knowledge_bases', { limit: 100 }) },
    { via: 'global', ok: 200, lists: true, label: 'resources/list', request: () => mcp('resources/list', {}) },
    { via: 'kb', ok: 200, reveals: true, refusesInBody: true, label: 'search', request: (t) => mcpTool('search', { knowledge_base_id: t.kb.id, query: QUESTION }) },
    { via: 'kb', ok: 200, reveals: true, refusesInBody: true, label: 'ask', request: (t) => mcpTool('ask', { knowledge_base_id: t.kb.id, question: QUESTION }) },
    {
      via: 'kb',
      ok: 200,
      reveals: true,
      refusesInBody: true,
      label: 'resources/read',
      request: (t) => mcp('resources/read', { uri: `kbqa://knowledge-bases/${t.kb.id}/documents/${t.kb.documentId}` }),
    },
  ],
  'POST /v1/conversations': [
    { via: 'global', ok: 200, request: () => ({ method: 'POST', path: '/v1/conversations', json: { items: [{ role: 'user', content: QUESTION }] } }) },
  ],
  'GET /v1/conversations/{conversation_id}': [{ via: 'owned', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: convPath(t) }) }],
  'POST /v1/conversations/{conversation_id}': [
    { via: 'owned', ok: 200, reveals: true, request: (t) => ({ method: 'POST', path: convPath(t), json: { metadata: { topic: t.kb.marker } } }) },
  ],
  'DELETE /v1/conversations/{conversation_id}': [
    { via: 'owned', ok: 200, request: async (t, w) => ({ method: 'DELETE', path: `/v1/conversations/${(await w.freshConversation(t)).conversationId}` }) },
  ],
  'GET /v1/conversations/{conversation_id}/items': [{ via: 'owned', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: `${convPath(t)}/items?order=asc&limit=100` }) }],
  'POST /v1/conversations/{conversation_id}/items': [
    { via: 'owned', ok: 200, request: (t) => ({ method: 'POST', path: `${convPath(t)}/items`, json: { items: [{ role: 'user', content: 'Thanks.' }] } }) },
  ],
  'GET /v1/conversations/{conversation_id}/items/{item_id}': [
    { via: 'owned', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: `${convPath(t)}/items/${t.kb.conversation.answerItemId}` }) },
  ],
  'DELETE /v1/conversations/{conversation_id}/items/{item_id}': [
    {
      via: 'owned',
      ok: 200,
      request: async (t, w) => {
        const { conversationId, answerItemId } = await w.freshConversation(t);
        return { method: 'DELETE', path: `/v1/conversations/${conversationId}/items/${answerItemId}` };
      },
    },
  ],
  'POST /v1/conversations/{conversation_id}/items/{item_id}/feedback': [
    { via: 'owned', ok: 201, request: (t) => ({ method: 'POST', path: `${convPath(t)}/items/${t.kb.conversation.answerItemId}/feedback`, json: { rating: 'up' } }) },
  ],
  'POST /v1/chat/completions/{completion_id}/feedback': [
    { via: 'owned', ok: 201, request: (t) => ({ method: 'POST', path: `/v1/chat/completions/${t.kb.conversation.chatId}/feedback`, json: { rating: 'down', comment: 'matrix' } }) },
  ],
  'GET /v1/workflow-runs/{run_id}': [{ via: 'owned', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: `/v1/workflow-runs/${t.kb.runId}` }) }],
};

/** The rule, stated once for the test: who may reach what, and which status says no. */
export function expectedStatus(recipe: Recipe, caller: Caller, target: Target | null, scope: Scope | null): number {
  if (recipe.via === 'public') return recipe.ok;
  if (caller.invalid) return 401;
  if (scope && RANK[caller.scope] < RANK[scope]) return 403;
  if (target && recipe.statusFor) return recipe.statusFor(caller, target);
  if (recipe.via === 'global' || !target) return recipe.globalStatus?.(caller) ?? recipe.ok;
  const outsideLimit = caller.limitedTo !== null && caller.limitedTo !== target.kb.id;
  const foreign = caller.workspace !== target.workspace;
  // By a knowledge base's id the limit is checked first: a 403 that says nothing about existence.
  if (recipe.via === 'kb') return outsideLimit ? 403 : foreign ? 404 : recipe.ok;
  // By an owned resource's id, another workspace's is simply not there.
  if (foreign || (outsideLimit && recipe.hidesOutsideLimit)) return 404;
  return outsideLimit ? 403 : recipe.ok;
}

export const mayRead = (caller: Caller, kb: Kb) =>
  !caller.invalid && caller.workspace === kb.workspace && (caller.limitedTo === null || caller.limitedTo === kb.id);
