import { countTokens } from '../../domain/document/tokens.ts';
import { notAModelMessage } from '../../domain/shared/errors.ts';
import type { Embedder } from '../../ports/models.ts';
import { ApiError } from '../../ports/api-error.ts';
import type { WorkspaceModelResolver } from './workspace-models.ts';

export type Embeddings = { model: string; vectors: Float32Array[]; promptTokens: number };

/**
 * Embeds texts with any embedding model listed to the caller, the way documents and queries are
 * embedded for search: the deployment's, or the caller's workspace's providers' (`{provider}/{model}`).
 */
export function createEmbeddingsService(embedders: ReadonlyMap<string, Embedder>, workspaceModels?: Pick<WorkspaceModelResolver, 'embedder'>) {
  return {
    async embed(workspaceId: string, modelId: string, texts: string[], dimensions?: number): Promise<Embeddings> {
      const embedder = embedders.get(modelId) ?? (await workspaceModels?.embedder(workspaceId, modelId));
      if (!embedder) throw new ApiError(404, 'not_found_error', 'model_not_found', `model: ${notAModelMessage(modelId, 'embedding')}`, { param: 'model' });
      const asked = dimensions === embedder.dimensions ? undefined : dimensions;
      if (asked !== undefined && !embedder.shortens) {
        const message = `dimensions: ${modelId} makes vectors of ${embedder.dimensions} dimensions only; leave dimensions out or ask for ${embedder.dimensions}.`;
        throw new ApiError(400, 'invalid_request_error', 'unsupported_parameter', message, { param: 'dimensions' });
      }
      const vectors = await embedder.embed(texts, asked === undefined ? {} : { dimensions: asked });
      return { model: embedder.model.id, vectors, promptTokens: texts.reduce((n, t) => n + countTokens(t), 0) };
    },
  };
}

export type EmbeddingsService = ReturnType<typeof createEmbeddingsService>;
