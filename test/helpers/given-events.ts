import { defaultSettings, type KnowledgeBaseSettings } from '../../schemas/knowledge-base-settings.ts';
import { hashSecret } from '../../src/app/services/api-keys.ts';
import type { ApiKeyScope } from '../../schemas/events/api-key.ts';
import { DEFAULT_WORKSPACE } from '../../src/app/services/workspaces.ts';
import type { GivenEvent } from './http-spec.ts';

/** Past events for an HTTP spec's given(), in the default workspace unless told; only what a test states, the rest defaults. */

const T0 = '2026-01-01T00:00:00.000Z';

/** The offline embedder every spec app has (what a knowledge base created without settings uses). */
export const OFFLINE_EMBEDDER = 'kbqa-hash-embed-512';

export function knowledgeBaseCreated({ id, name = 'kb', description = null, settings = {}, workspaceId = DEFAULT_WORKSPACE, at = T0 }: {
  id: string;
  name?: string;
  description?: string | null;
  settings?: Partial<KnowledgeBaseSettings>;
  workspaceId?: string;
  at?: string;
}): GivenEvent {
  return {
    type: 'KnowledgeBaseCreated',
    data: { knowledge_base_id: id, workspace_id: workspaceId, name, description, settings: { ...defaultSettings(OFFLINE_EMBEDDER), ...settings }, created_at: at },
  };
}

/** A key whose secret the test holds: its stream is `api_key-<id>`, as the decider names it. */
export function apiKeyCreated({ id, secret, scopes = ['write'], knowledgeBaseIds = null, expiresAt = null, workspaceId = DEFAULT_WORKSPACE, at = T0 }: {
  id: string;
  secret: string;
  scopes?: ApiKeyScope[];
  knowledgeBaseIds?: string[] | null;
  expiresAt?: string | null;
  workspaceId?: string;
  at?: string;
}): GivenEvent {
  return {
    type: 'ApiKeyCreated',
    streamId: `api_key-${id}`,
    data: { key_id: id, workspace_id: workspaceId, name: id, hash: hashSecret(secret), prefix: secret.slice(0, 12), scopes, knowledge_base_ids: knowledgeBaseIds, expires_at: expiresAt, created_at: at },
  };
}
