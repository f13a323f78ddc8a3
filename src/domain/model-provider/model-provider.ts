import type { z } from 'zod';
import { modelProviderEvents } from '../../../schemas/events/model-provider.ts';
import type { ModelProviderCreated, ProviderModel } from '../../../schemas/events/model-provider.ts';
import { assertNever, type Command, type Decider, eventsOf } from '../shared/decider.ts';
import { conflict, invalid, missing } from '../shared/errors.ts';

type Events = typeof modelProviderEvents;
export type ModelProviderEvent = { [K in keyof Events]: { type: K; data: z.infer<Events[K]> } }[keyof Events];
type Provider = Omit<z.infer<typeof ModelProviderCreated>, 'created_at'>;
type Model = z.infer<typeof ProviderModel>;

/** What a PATCH may change; `secret_ref` and `api_key_hint` change together, when the key does. */
export type ProviderChanges = Partial<Pick<Provider, 'name' | 'base_url' | 'models' | 'secret_ref' | 'api_key_hint'>>;

export type ModelProviderCommand =
  | Command<'CreateModelProvider', Provider>
  | Command<'UpdateModelProvider', { provider_id: string; workspace_id: string; changes: ProviderChanges }>
  | Command<'DeleteModelProvider', { provider_id: string; workspace_id: string }>;

export type ModelProviderState = { status: 'absent' | 'deleted' } | { status: 'active'; provider: Provider };

/** A model list names each model once, and only an embedding model has dimensions. */
function checkModels(models: readonly Model[]) {
  const seen = new Set<string>();
  for (const [i, model] of models.entries()) {
    if (seen.has(model.id)) throw invalid('duplicate_model', `models[${i}].id: '${model.id}' is listed twice`, 'models');
    seen.add(model.id);
    if (model.dimensions !== undefined && model.type !== 'embedding') {
      throw invalid('invalid_model', `models[${i}].dimensions: only an embedding model has dimensions`, 'models');
    }
  }
}

export const modelProviderDecider: Decider<ModelProviderState, ModelProviderCommand, ModelProviderEvent> = {
  initialState: () => ({ status: 'absent' }),
  streamId: (id) => `model_provider-${id}`,
  isEvent: eventsOf(modelProviderEvents),
  decide(command, state) {
    switch (command.type) {
      case 'CreateModelProvider':
        if (state.status !== 'absent') throw conflict('model_provider_exists', `model provider ${command.data.provider_id} already exists`);
        checkModels(command.data.models);
        return [{ type: 'ModelProviderCreated', data: { ...command.data, created_at: command.metadata.now } }];
      case 'UpdateModelProvider': {
        if (state.status !== 'active' || state.provider.workspace_id !== command.data.workspace_id) throw missing('model_provider', command.data.provider_id);
        const next = { ...state.provider, ...command.data.changes };
        checkModels(next.models);
        return [{ type: 'ModelProviderUpdated', data: { ...next, updated_at: command.metadata.now } }];
      }
      case 'DeleteModelProvider': {
        if (state.status !== 'active' || state.provider.workspace_id !== command.data.workspace_id) throw missing('model_provider', command.data.provider_id);
        const { provider_id, workspace_id, name, secret_ref } = state.provider;
        return [{ type: 'ModelProviderDeleted', data: { provider_id, workspace_id, name, secret_ref, deleted_at: command.metadata.now } }];
      }
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'ModelProviderCreated': {
        const { created_at: _at, ...provider } = event.data;
        return { status: 'active', provider };
      }
      case 'ModelProviderUpdated': {
        const { updated_at: _at, ...provider } = event.data;
        return { status: 'active', provider };
      }
      case 'ModelProviderDeleted':
        return { status: 'deleted' };
      default:
        return assertNever(event);
    }
  },
};

/** `{provider}/{model}` → its parts; null for a model id with no provider prefix (the deployment's). */
export function providerModelRef(modelId: string): { provider: string; model: string } | null {
  const slash = modelId.indexOf('/');
  if (slash <= 0 || slash === modelId.length - 1) return null;
  return { provider: modelId.slice(0, slash), model: modelId.slice(slash + 1) };
}

type KnowledgeBaseModels = { id: string; settings: { embedding_model: string; rerank: { model: string | null } } };

/** The knowledge bases whose embedding or rerank model is one of the provider's: while there are any, it may not go. */
export function knowledgeBasesUsing(providerName: string, knowledgeBases: readonly KnowledgeBaseModels[]): string[] {
  const uses = (model: string | null) => model !== null && providerModelRef(model)?.provider === providerName;
  return knowledgeBases.filter((kb) => uses(kb.settings.embedding_model) || uses(kb.settings.rerank.model)).map((kb) => kb.id);
}

/**
 * The knowledge bases a new model list would strand: one whose embedding model leaves the list or
 * changes its dimensions (its index holds vectors of the old size), or whose rerank model leaves it.
 */
export function knowledgeBasesStranded(providerName: string, models: readonly z.infer<typeof ProviderModel>[], knowledgeBases: readonly KnowledgeBaseModels[], current: readonly z.infer<typeof ProviderModel>[]): string[] {
  const entry = (list: readonly z.infer<typeof ProviderModel>[], model: string | null, type: 'embedding' | 'rerank') => {
    const ref = model === null ? null : providerModelRef(model);
    return ref?.provider === providerName ? (list.find((m) => m.id === ref.model && m.type === type) ?? null) : undefined;
  };
  const stranded = (model: string | null, type: 'embedding' | 'rerank') => {
    const before = entry(current, model, type);
    if (before === undefined) return false;
    const after = entry(models, model, type);
    return after === null || (type === 'embedding' && after?.dimensions !== before?.dimensions);
  };
  return knowledgeBases.filter((kb) => stranded(kb.settings.embedding_model, 'embedding') || stranded(kb.settings.rerank.model, 'rerank')).map((kb) => kb.id);
}
