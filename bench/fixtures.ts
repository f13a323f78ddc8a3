import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { eventCatalog, type EventData, type EventType } from '../schemas/events/index.ts';
import { defaultSettings, type KnowledgeBaseSettings } from '../schemas/knowledge-base-settings.ts';
import { HASHING_EMBEDDER_ID } from '../src/adapters/local/hashing-embedder.ts';
import type { NewEvent } from '../src/ports/event-store.ts';

/** Realistic event payloads: the same shapes the deciders emit, valid against schemas/events. */

const TOPICS = ['Support handbook', 'Product FAQ', 'Engineering wiki', 'HR policies', 'Release notes', 'Sales playbook', 'Legal contracts', 'Onboarding guide'];

/** A fixed clock for fixtures: the i-th second of 2026. */
export const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();

export const kbName = (i: number, version = 0) => `${TOPICS[i % TOPICS.length]} ${i}${version ? ` (rev ${version})` : ''}`;

export const kbDescription = (i: number) =>
  i % 5 === 0 ? null : `Internal documents for team ${i % 37}: procedures, answers to recurring questions and reference material.`;

/** Settings that vary from one update to the next but always pass KnowledgeBaseSettings. */
export function kbSettings(variant: number): KnowledgeBaseSettings {
  const base = defaultSettings(HASHING_EMBEDDER_ID);
  const maxTokens = 256 + (variant % 8) * 128;
  return {
    ...base,
    top_k: 1 + (variant % 20),
    score_threshold: (variant % 10) / 20,
    recall: { vector: true, keyword: variant % 2 === 0, graph: variant % 7 === 0 },
    chunking: { max_tokens: maxTokens, overlap_tokens: Math.floor(maxTokens / 8) },
  };
}

export const workspaceCreated = (workspaceId: string, createdAt: string): EventData<'WorkspaceCreated'> => ({
  workspace_id: workspaceId,
  name: `Workspace ${workspaceId}`,
  created_at: createdAt,
});

export function apiKeyCreated(keyId: string, workspaceId: string, createdAt: string, i: number): EventData<'ApiKeyCreated'> {
  const secret = `kbqa-${randomBytes(32).toString('base64url')}`;
  return {
    key_id: keyId,
    workspace_id: workspaceId,
    name: `service key ${i}`,
    hash: createHash('sha256').update(secret).digest('hex'),
    prefix: secret.slice(0, 12),
    scopes: i % 3 === 0 ? ['admin'] : i % 3 === 1 ? ['write'] : ['read'],
    knowledge_base_ids: null,
    expires_at: i % 4 === 0 ? '2099-01-01T00:00:00.000Z' : null,
    created_at: createdAt,
  };
}

export const kbCreated = (kbId: string, workspaceId: string, i: number, createdAt: string): EventData<'KnowledgeBaseCreated'> => ({
  knowledge_base_id: kbId,
  workspace_id: workspaceId,
  name: kbName(i),
  description: kbDescription(i),
  settings: kbSettings(i),
  created_at: createdAt,
});

export const kbUpdated = (kbId: string, i: number, version: number, updatedAt: string): EventData<'KnowledgeBaseUpdated'> => ({
  knowledge_base_id: kbId,
  name: kbName(i, version),
  description: kbDescription(i + version),
  settings: kbSettings(i + version),
  updated_at: updatedAt,
});

export const kbDeleted = (kbId: string, deletedAt: string): EventData<'KnowledgeBaseDeleted'> => ({ knowledge_base_id: kbId, deleted_at: deletedAt });

/** Wraps a payload the way the command shell does (uuid, schema version, actor). */
export function newEvent<T extends EventType>(type: T, data: EventData<T>, actor = 'key_bench'): NewEvent<T, EventData<T>> {
  return { id: randomUUID(), type, data, metadata: { schemaVersion: eventCatalog[type].version, actor } };
}

/** Parses a payload with its catalogue schema; throws when a fixture drifted from the contract. */
export function assertValid(type: EventType, data: unknown) {
  eventCatalog[type].schema.parse(data);
}
