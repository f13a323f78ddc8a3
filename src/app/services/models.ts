import type { ModelInfo } from '../../ports/models.ts';

/** The models this deployment can use, as adapters registered them at start-up. */
export type ModelCatalog = {
  list(): readonly ModelInfo[];
  get(id: string): ModelInfo | undefined;
  defaultEmbeddingModel: string;
};

export function createModelCatalog(models: readonly ModelInfo[], defaultEmbeddingModel: string): ModelCatalog {
  const byId = new Map(models.map((m) => [m.id, m]));
  if (byId.get(defaultEmbeddingModel)?.kind !== 'embedding') {
    throw new Error(`default embedding model ${defaultEmbeddingModel} is not registered`);
  }
  return { list: () => models, get: (id) => byId.get(id), defaultEmbeddingModel };
}

export function presentModel(model: ModelInfo) {
  return { id: model.id, object: 'model' as const, created: model.created, owned_by: model.ownedBy };
}
