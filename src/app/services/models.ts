import type { ModelInfo } from '../../ports/models.ts';

/** The models this deployment can use, as adapters registered them at start-up. */
export type ModelCatalog = {
  list(): readonly ModelInfo[];
  get(id: string): ModelInfo | undefined;
  defaultEmbeddingModel: string;
  /** Why a model this deployment knows cannot be used here (a built-in local model whose folder is not installed), if it cannot. */
  unavailable(id: string): string | undefined;
};

/** `unavailable`: model id → the sentence that says why it is not served here and what to do. */
export function createModelCatalog(models: readonly ModelInfo[], defaultEmbeddingModel: string, unavailable: ReadonlyMap<string, string> = new Map()): ModelCatalog {
  const byId = new Map(models.map((m) => [m.id, m]));
  if (byId.get(defaultEmbeddingModel)?.kind !== 'embedding') {
    throw new Error(`default embedding model ${defaultEmbeddingModel} is not registered${unavailable.has(defaultEmbeddingModel) ? `: ${unavailable.get(defaultEmbeddingModel)}` : ''}`);
  }
  return { list: () => models, get: (id) => byId.get(id), defaultEmbeddingModel, unavailable: (id) => (byId.has(id) ? undefined : unavailable.get(id)) };
}

/**
 * A model as /v1/models shows it. `owned_by` says whose it is: `kbqa` for the offline models, a
 * workspace provider's name for its models, and `deployment` for the providers the environment
 * configures (their adapters label the protocol they speak, which is not who owns them).
 */
export function presentModel(model: ModelInfo, source: 'deployment' | 'workspace' = 'deployment') {
  const ownedBy = source === 'workspace' || model.ownedBy === 'kbqa' ? model.ownedBy : 'deployment';
  return { id: model.id, object: 'model' as const, created: model.created, owned_by: ownedBy, type: model.kind };
}
