import type { ApiKeyScope } from '../../../schemas/events/api-key.ts';
import { grants, mayUseKnowledgeBases } from '../../domain/api-key/api-key.ts';
import { forbidden } from '../errors.ts';

/** Who is calling: the key a request authenticated with. */
export type Principal = {
  keyId: string;
  workspaceId: string;
  scopes: ApiKeyScope[];
  knowledgeBaseIds: string[] | null;
};

export function requireScope(principal: Principal, scope: ApiKeyScope) {
  if (!grants(principal.scopes, scope)) {
    throw forbidden('insufficient_scope', `This API key lacks the '${scope}' scope.`);
  }
}

/** Whether the key may see or act on something that names these knowledge bases (null: all of them). */
const mayAccess = (principal: Principal, knowledgeBaseIds: readonly string[] | null) =>
  mayUseKnowledgeBases(principal.knowledgeBaseIds, knowledgeBaseIds);

/**
 * Every route that touches knowledge bases, directly or through a workflow, a run or a key, passes
 * here: the whole answer or a 403, never part of it.
 */
export function requireKnowledgeBasesAccess(principal: Principal, knowledgeBaseIds: readonly string[] | null) {
  if (mayAccess(principal, knowledgeBaseIds)) return;
  const denied = knowledgeBaseIds?.find((id) => !mayAccess(principal, [id]));
  throw forbidden(
    'knowledge_base_not_allowed',
    denied ? `This API key may not use knowledge base '${denied}'.` : 'This API key is limited to certain knowledge bases and may not use all of them.',
  );
}

/**
 * The filter a list applies for this key: what names only knowledge bases it may use. None for an
 * unlimited key, so its lists read no further ahead than the page.
 */
export function visibleTo<Doc>(principal: Principal, knowledgeBasesOf: (doc: Doc) => readonly string[] | null): ((doc: Doc) => boolean) | undefined {
  if (principal.knowledgeBaseIds === null) return undefined;
  return (doc) => mayAccess(principal, knowledgeBasesOf(doc));
}

export const requireKnowledgeBaseAccess = (principal: Principal, knowledgeBaseId: string) => requireKnowledgeBasesAccess(principal, [knowledgeBaseId]);

/**
 * What belongs to the whole workspace (its secrets, its model providers) is for keys that reach
 * the whole workspace: a key limited to some knowledge bases is refused, as it is when creating one.
 */
export function requireWorkspaceWide(principal: Principal, what: string) {
  if (principal.knowledgeBaseIds === null) return;
  throw forbidden('workspace_key_required', `A key limited to certain knowledge bases cannot manage ${what}: they belong to the whole workspace.`);
}
