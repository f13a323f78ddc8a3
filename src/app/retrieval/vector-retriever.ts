import type { Embedder } from '../../ports/models.ts';
import type { VectorIndex } from '../../ports/vector-index.ts';
import { modelUnavailable } from './errors.ts';
import type { Retriever } from './retriever.ts';

/** The query embedded with the knowledge base's embedding model; cosine k-NN in its namespace. */
export function vectorRetriever(vectors: VectorIndex, embedders: ReadonlyMap<string, Embedder>): Retriever {
  return {
    recall: 'vector',
    async retrieve({ text, kb, depth, filter }) {
      const embedder = embedders.get(kb.settings.embedding_model);
      if (!embedder) throw modelUnavailable('Embedding', kb.settings.embedding_model);
      const [vector] = await embedder.embed([text]);
      return vectors.query(kb.id, vector!, depth, filter);
    },
  };
}
