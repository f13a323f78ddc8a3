import type { z } from 'zod';
import { knowledgeBaseEvents } from '../../../schemas/events/knowledge-base.ts';
import type {
  KnowledgeBaseCreated,
  KnowledgeBaseDeleted,
  KnowledgeBaseReindexed,
  KnowledgeBaseReindexFailed,
  KnowledgeBaseReindexRequested,
  KnowledgeBaseUpdated,
  VectorStoreSettings,
} from '../../../schemas/events/knowledge-base.ts';
import {
  defaultSettings,
  KnowledgeBaseSettings,
  type KnowledgeBaseSettingsPatch,
  mergeSettings,
} from '../../../schemas/knowledge-base-settings.ts';
import { assertNever, type Command, type Decider, eventsOf } from '../shared/decider.ts';
import { conflict, invalid, missing } from '../shared/errors.ts';

export type KnowledgeBaseEvent =
  | { type: 'KnowledgeBaseCreated'; data: z.infer<typeof KnowledgeBaseCreated> }
  | { type: 'KnowledgeBaseUpdated'; data: z.infer<typeof KnowledgeBaseUpdated> }
  | { type: 'KnowledgeBaseDeleted'; data: z.infer<typeof KnowledgeBaseDeleted> }
  | { type: 'KnowledgeBaseReindexRequested'; data: z.infer<typeof KnowledgeBaseReindexRequested> }
  | { type: 'KnowledgeBaseReindexed'; data: z.infer<typeof KnowledgeBaseReindexed> }
  | { type: 'KnowledgeBaseReindexFailed'; data: z.infer<typeof KnowledgeBaseReindexFailed> };

type Target = { knowledge_base_id: string; workspace_id: string };

export type KnowledgeBaseCommand =
  | Command<
      'CreateKnowledgeBase',
      Target & {
        name: string;
        description: string | null;
        settings: KnowledgeBaseSettingsPatch;
        default_embedding_model: string;
        vector_store?: z.infer<typeof VectorStoreSettings>;
      }
    >
  | Command<'UpdateKnowledgeBase', Target & { name?: string; description?: string | null; settings?: KnowledgeBaseSettingsPatch; vector_store?: z.infer<typeof VectorStoreSettings> }>
  | Command<'DeleteKnowledgeBase', Target>
  | Command<'RequestReindex', Target & { reindex_id: string }>
  | Command<'FinishReindex', { knowledge_base_id: string; reindex_id: string; documents: number; chunks: number; started_at: string }>
  | Command<'FailReindex', { knowledge_base_id: string; reindex_id: string; code: string; message: string }>;

export type KnowledgeBaseState =
  | { status: 'absent' }
  | {
      status: 'active' | 'deleted';
      workspaceId: string;
      name: string;
      description: string | null;
      settings: KnowledgeBaseSettings;
      vectorStore?: z.infer<typeof VectorStoreSettings>;
      /** The re-index asked for and not yet finished or failed: one at a time. */
      reindexing?: string;
    };

export const knowledgeBaseDecider: Decider<KnowledgeBaseState, KnowledgeBaseCommand, KnowledgeBaseEvent> = {
  initialState: () => ({ status: 'absent' }),
  streamId: (id) => `knowledge_base-${id}`,
  isEvent: eventsOf(knowledgeBaseEvents),
  decide(command, state) {
    const { metadata } = command;
    switch (command.type) {
      case 'CreateKnowledgeBase': {
        if (state.status !== 'absent') throw conflict('knowledge_base_exists', `knowledge base ${command.data.knowledge_base_id} already exists`);
        const { default_embedding_model, settings, vector_store, ...rest } = command.data;
        const merged = validSettings(mergeSettings(defaultSettings(default_embedding_model), settings));
        return [{ type: 'KnowledgeBaseCreated', data: { ...rest, settings: merged, ...(vector_store && { vector_store }), created_at: metadata.now } }];
      }
      case 'UpdateKnowledgeBase': {
        const patch = command.data;
        const current = requireActive(state, patch);
        return [
          {
            type: 'KnowledgeBaseUpdated',
            data: {
              knowledge_base_id: patch.knowledge_base_id,
              name: patch.name ?? current.name,
              description: patch.description === undefined ? current.description : patch.description,
              settings: validSettings(mergeSettings(current.settings, patch.settings ?? {})),
              ...((patch.vector_store ?? current.vectorStore) && { vector_store: patch.vector_store ?? current.vectorStore }),
              updated_at: metadata.now,
            },
          },
        ];
      }
      case 'DeleteKnowledgeBase':
        requireActive(state, command.data);
        return [{ type: 'KnowledgeBaseDeleted', data: { knowledge_base_id: command.data.knowledge_base_id, deleted_at: metadata.now } }];
      case 'RequestReindex': {
        const { knowledge_base_id, reindex_id } = command.data;
        const current = requireActive(state, command.data);
        if (current.reindexing) throw conflict('reindex_in_progress', `knowledge base ${knowledge_base_id} is being re-indexed already (${current.reindexing}); wait until it finishes`);
        return [{ type: 'KnowledgeBaseReindexRequested', data: { knowledge_base_id, reindex_id, embedding_model: current.settings.embedding_model, requested_at: metadata.now } }];
      }
      // The reindexer may hear its request twice (at least once): only the running re-index ends, once.
      case 'FinishReindex':
        if (state.status !== 'active' || state.reindexing !== command.data.reindex_id) return [];
        return [{ type: 'KnowledgeBaseReindexed', data: { ...command.data, finished_at: metadata.now } }];
      case 'FailReindex':
        if (state.status !== 'active' || state.reindexing !== command.data.reindex_id) return [];
        return [{ type: 'KnowledgeBaseReindexFailed', data: { ...command.data, failed_at: metadata.now } }];
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'KnowledgeBaseCreated':
      case 'KnowledgeBaseUpdated': {
        const workspaceId = event.type === 'KnowledgeBaseCreated' ? event.data.workspace_id : state.status === 'absent' ? '' : state.workspaceId;
        const { name, description, settings, vector_store } = event.data;
        const reindexing = state.status === 'absent' ? undefined : state.reindexing;
        return { status: 'active', workspaceId, name, description, settings, ...(vector_store && { vectorStore: vector_store }), ...(reindexing && { reindexing }) };
      }
      case 'KnowledgeBaseDeleted':
        return state.status === 'absent' ? state : { ...state, status: 'deleted' };
      case 'KnowledgeBaseReindexRequested':
        return state.status === 'absent' ? state : { ...state, reindexing: event.data.reindex_id };
      case 'KnowledgeBaseReindexed':
      case 'KnowledgeBaseReindexFailed': {
        if (state.status === 'absent') return state;
        const { reindexing: _done, ...rest } = state;
        return rest;
      }
      default:
        return assertNever(event);
    }
  },
};

function requireActive(state: KnowledgeBaseState, target: Target) {
  // Another workspace's knowledge base answers exactly like a missing one: its existence stays private.
  if (state.status !== 'active' || state.workspaceId !== target.workspace_id) {
    throw missing('knowledge_base', target.knowledge_base_id);
  }
  return state;
}

function validSettings(candidate: unknown): KnowledgeBaseSettings {
  const parsed = KnowledgeBaseSettings.safeParse(candidate);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const param = ['settings', ...issue.path.map(String)].join('.');
  throw invalid('invalid_settings', `${param}: ${issue.message}`, param);
}
