import type { z } from 'zod';
import type { KnowledgeBaseDoc } from '../../projections/knowledge-bases/index.ts';
import type { ChunkRecord, DocumentChunksExtracted, DocumentDeleted, DocumentParsed } from '../../schemas/events/document.ts';
import { handleCommand } from '../../src/app/command-handler.ts';
import { type AppContext, commandMetadata } from '../../src/app/context.ts';
import type { LiveFeed } from '../../src/app/live-feed.ts';
import { documentDecider } from '../../src/domain/document/document.ts';
import { extractEntities } from '../../src/domain/document/entities.ts';
import { fold } from '../../src/domain/shared/decider.ts';
import { DomainError } from '../../src/domain/shared/errors.ts';
import type { EntityGraph } from '../../src/ports/entity-graph.ts';
import type { ConsumerGroup } from '../../src/ports/event-bus.ts';
import type { RecordedEvent } from '../../src/ports/event-store.ts';
import type { KeywordIndex } from '../../src/ports/keyword-index.ts';
import type { Embedder } from '../../src/ports/models.ts';
import type { VectorIndex } from '../../src/ports/vector-index.ts';
import { failDocument } from '../shared.ts';

export type IndexerDeps = {
  ctx: AppContext;
  embedders: ReadonlyMap<string, Embedder>;
  vectors: VectorIndex;
  keywords: KeywordIndex;
  graph: EntityGraph;
  feed: LiveFeed;
  embedBatchSize?: number;
};

type Chunk = z.infer<typeof ChunkRecord>;

/** What retrieval matches against: the chunk's text under its headings. */
export const indexedText = (chunk: Pick<Chunk, 'heading_path' | 'text'>) =>
  chunk.heading_path.length > 0 ? `${chunk.heading_path.join(' › ')}\n${chunk.text}` : chunk.text;

/**
 * DocumentParsed → embeddings, vector index, keyword index, entity graph → DocumentIndexed.
 * Every write is an upsert by chunk id, so a redelivered event re-indexes the same chunks in place.
 * DocumentDeleted and KnowledgeBaseDeleted take chunks back out of all three indexes.
 */
export function indexerConsumer(deps: IndexerDeps): ConsumerGroup {
  return {
    name: 'indexer',
    eventTypes: new Set(['DocumentParsed', 'DocumentDeleted', 'KnowledgeBaseDeleted']),
    batchSize: 32,
    async handle(batch) {
      for (const event of batch) await handleOne(deps, event);
    },
    onParked: async (event, error) => {
      if (event.type !== 'DocumentParsed') return;
      const message = error instanceof Error ? error.message : String(error);
      await failDocument(deps.ctx, (event.data as { document_id: string }).document_id, 'indexing', 'internal_error', message);
    },
  };
}

async function handleOne(deps: IndexerDeps, event: RecordedEvent) {
  const { vectors, keywords, graph } = deps;
  if (event.type === 'DocumentDeleted') {
    const { knowledge_base_id: kb, document_id: doc } = event.data as z.infer<typeof DocumentDeleted>;
    await Promise.all([vectors.deleteByDocument(kb, doc), keywords.deleteByDocument(kb, doc), graph.deleteByDocument(kb, doc)]);
    return;
  }
  if (event.type === 'KnowledgeBaseDeleted') {
    const kb = (event.data as { knowledge_base_id: string }).knowledge_base_id;
    await Promise.all([vectors.deleteNamespace(kb), keywords.deleteNamespace(kb), graph.deleteNamespace(kb)]);
    return;
  }
  await indexDocument(deps, event.data as z.infer<typeof DocumentParsed>);
}

async function indexDocument(deps: IndexerDeps, parsed: z.infer<typeof DocumentParsed>) {
  const { ctx, feed, vectors, keywords, graph, embedBatchSize = 256 } = deps;
  const { document_id: id, knowledge_base_id: kbId } = parsed;
  const events = await ctx.store.readStream(documentDecider.streamId(id));
  if (fold(documentDecider.evolve, documentDecider.initialState(), events as never).status !== 'indexing') return;
  const kb = await ctx.readModels.get<KnowledgeBaseDoc>('knowledge_bases', kbId);
  if (!kb) return failDocument(ctx, id, 'indexing', 'knowledge_base_deleted', 'The knowledge base was deleted.');
  const embedder = deps.embedders.get(kb.settings.embedding_model);
  if (!embedder) return failDocument(ctx, id, 'indexing', 'model_unavailable', `Embedding model ${kb.settings.embedding_model} is not available.`);

  const t0 = performance.now();
  const chunks = events
    .filter((e) => e.type === 'DocumentChunksExtracted' && (e.data as { attempt: number }).attempt === parsed.attempt)
    .flatMap((e) => (e.data as z.infer<typeof DocumentChunksExtracted>).chunks);
  const entities = new Set<string>();
  for (let start = 0; start < chunks.length; start += embedBatchSize) {
    const slice = chunks.slice(start, start + embedBatchSize);
    const texts = slice.map(indexedText);
    const embeddings = await embedder.embed(texts);
    const mentions = slice.map((c, i) => ({ chunkId: c.chunk_id, documentId: id, entities: extractEntities(texts[i]!) }));
    mentions.forEach((m) => m.entities.forEach((e) => entities.add(e)));
    await vectors.upsert(kbId, slice.map((c, i) => ({ id: c.chunk_id, documentId: id, values: embeddings[i]! })));
    await keywords.upsert(kbId, slice.map((c, i) => ({ id: c.chunk_id, documentId: id, text: texts[i]! })));
    await graph.upsert(kbId, mentions);
    feed.publish(id, { event: 'progress', data: { stage: 'indexing', chunks_indexed: start + slice.length, chunk_count: chunks.length } });
  }
  try {
    await handleCommand(ctx.store, documentDecider, id, {
      type: 'RecordIndexed',
      data: { document_id: id, entity_count: entities.size, embedding_model: embedder.model.id, index_ms: Math.round(performance.now() - t0) },
      metadata: commandMetadata(ctx, 'indexer'),
    });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
  }
}
