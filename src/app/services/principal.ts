import type { ApiKeyScope } from '../../../schemas/events/api-key.ts';
import { grants, mayUseKnowledgeBase } from '../../domain/api-key/api-key.ts';
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
    throw forbidden('insufficient_scope', `this API key lacks the '${scope}' scope`);
  }
}

export function requireKnowledgeBaseAccess(principal: Principal, knowledgeBaseId: string) {
  if (!mayUseKnowledgeBase(principal.knowledgeBaseIds, knowledgeBaseId)) {
    throw forbidden('knowledge_base_not_allowed', `this API key may not use knowledge base ${knowledgeBaseId}`);
  }
}
