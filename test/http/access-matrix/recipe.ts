import { uploadedFileId } from '../../helpers/documents.ts';
import type { TestServer } from '../../helpers/server.ts';

/**
 * What an access-matrix recipe says (see access-matrix.http.test.ts): how a route of the route
 * table reaches a knowledge base, what it answers when allowed, and the access rule that says which
 * status each kind of key gets instead. Each capability keeps its routes' recipes in a file named
 * as it is (`<capability>.ts` beside this one); `operations.ts` holds the service's own routes.
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

export type Request = {
  method: string;
  path: string;
  json?: unknown;
  headers?: Record<string, string>;
  /** A stream that stays open (a knowledge base's document feed) is read until this text, then left. */
  until?: string;
};

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
export const respond = (target: Target, stream: boolean) => ({ model: 'kbqa-extractive', input: QUESTION, stream, tools: [{ type: 'file_search', vector_store_ids: [target.kb.id] }] });
/** A response stored over the target's knowledge base by its workspace's admin. */
export const storedResponse = async (t: Target, w: World) => (await w.server.call('POST', '/v1/responses', { key: t.admin, json: respond(t, false) })).body.id as string;
export const chat = (target: Target, stream: boolean) => ({ model: 'kbqa-extractive', knowledge_base_id: target.kb.id, stream, messages: [{ role: 'user', content: QUESTION }] });
/** One MCP message, as the streamable HTTP transport wants it: it insists on both media types in Accept. */
export const mcp = (method: string, params: Record<string, unknown>): Request => ({
  method: 'POST',
  path: '/mcp',
  headers: { accept: 'application/json, text/event-stream' },
  json: { jsonrpc: '2.0', id: 1, method, params },
});
export const mcpTool = (name: string, args: Record<string, unknown>) => mcp('tools/call', { name, arguments: args });
export const kbPath = (target: Target) => `/v1/knowledge-bases/${target.kb.id}`;
export const convPath = (target: Target) => `/v1/conversations/${target.kb.conversation.conversationId}`;
export const docPath = (target: Target) => `${kbPath(target)}/documents/${target.kb.documentId}`;

export const store = (target: Target) => `/v1/vector_stores/${target.kb.id}`;
export const adminsFile = (caller: Caller) => (caller.workspace === 'main' && caller.limitedTo === null ? 200 : 404);

export const freshFile = (w: World): Promise<string> => uploadedFileId(w.server.url, w.admins.main, 'matrix.md', 'A file made by the access matrix.');

/** An id no file has: a key that may use the store reaches the 404 that says so; others get their 401/403/404 first. */
export const NO_FILE = 'file_00000000000000000000000000';


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
