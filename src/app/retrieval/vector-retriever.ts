import type { Embedder } from '../../ports/models.ts';
import type { WorkspaceModelResolver } from '../services/workspace-models.ts';
import type { VectorIndex } from '../../ports/vector-index.ts';
import { modelUnavailable } from './errors.ts';
import type { Retriever } from './retriever.ts';

/**
 * The query embedded with the knowledge base's embedding model (the deployment's, or its
 * workspace's provider's, as the indexer embedded its chunks); cosine k-NN in its namespace.
 */
export function vectorRetriever(vectors: VectorIndex, embedders: ReadonlyMap<string, Embedder>, workspaceModels?: Pick<WorkspaceModelResolver, 'embedder'>): Retriever {
  return {
    recall: 'vector',
    async retrieve({ text, kb, depth, filter }) {
      const id = kb.settings.embedding_model;
      const embedder = embedders.get(id) ?? (await workspaceModels?.embedder(kb.workspace_id, id));
      if (!embedder) throw modelUnavailable('Embedding', kb.settings.embedding_model);
      const [vector] = await embedder.embed([text]);
      return vectors.query(kb.id, vector!, depth, filter);
    },
  };
}
