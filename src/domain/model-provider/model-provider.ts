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
