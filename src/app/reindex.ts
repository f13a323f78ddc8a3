import { currentVersionOf, versionsOf, type DocumentDoc } from '../../projections/documents/index.ts';
import type { KnowledgeBaseDoc } from '../../projections/knowledge-bases/index.ts';
import { documentDecider } from '../domain/document/document.ts';
import { underHeadings } from '../domain/retrieval/passage-text.ts';
import type { EventStore, RecordedEvent } from '../ports/event-store.ts';
import type { Embedder } from '../ports/models.ts';
import type { PassageStore } from '../ports/passage-store.ts';
import type { ReadModelStore } from '../ports/read-models.ts';
import type { VectorIndex } from '../ports/vector-index.ts';
import { currentParse, passageOf, readParsedChunks } from './document-chunks.ts';
import type { WorkspaceModelResolver } from './services/workspace-models.ts';

/** Where an unfinished reindex stands, by knowledge base (an operational record, not a projection). */
export const REINDEX_PROGRESS = 'reindex_progress';

export type ReindexProgress = { documents: number; totalDocuments: number; chunks: number; resumed: boolean; after: string | null };

/** `total`: the answering documents when the run started (absent in records older than it). */
export type ProgressDoc = { id: string; model: string; after: string | null; documents: number; chunks: number; total?: number; started_at: string };

/** The knowledge base's embedder: the deployment's, or its workspace's provider's. */
async function embedderOf(kb: KnowledgeBaseDoc, embedders: ReadonlyMap<string, Embedder>, workspaceModels?: Pick<WorkspaceModelResolver, 'embedder'>): Promise<Embedder> {
  const model = kb.settings.embedding_model;
  const embedder = embedders.get(model) ?? (await workspaceModels?.embedder(kb.workspace_id, model));
  if (!embedder) throw new Error(`knowledge base '${kb.id}' uses embedding model '${model}', which neither this deployment nor its workspace's providers serve (see GET /v1/models)`);
  return embedder;
}

/**
 * Re-embeds every answering document of a knowledge base (one with a current version: a document
 * whose newest version failed or is still being indexed answers with an older one, issue 44) with its current embedding model, from the
 * log (each document's lifecycle and the chunk stream of its parse), into the vector index, and
 * writes its passages again: after the model changed, or to fill a new vector index or passage
 * store. Documents go in id order and progress is saved after each, so an
 * interrupted run resumes after the last finished document; a fresh run clears the namespace
 * first, since vectors of another model (or dimension) must not mix with the new ones. Given the
 * passage store, it rewrites the passages too, which gives those indexed before names were kept
 * their document's name.
 */
export async function reindexKnowledgeBase(opts: {
  store: EventStore;
  readModels: ReadModelStore;
  vectors: VectorIndex;
  passages: PassageStore;
  embedders: ReadonlyMap<string, Embedder>;
  /** A knowledge base naming its workspace's provider's model (`{provider}/{model}`) is re-embedded with it. */
  workspaceModels?: Pick<WorkspaceModelResolver, 'embedder'>;
  knowledgeBaseId: string;
  restart?: boolean;
  batchSize?: number;
  now?: () => Date;
  onProgress?: (p: ReindexProgress) => void;
}): Promise<ReindexProgress & { startedAt: string }> {
  const { store, readModels, vectors, passages, embedders, knowledgeBaseId: kbId, restart = false, batchSize = 256, now = () => new Date(), onProgress } = opts;
  const kb = await readModels.get<KnowledgeBaseDoc>('knowledge_bases', kbId);
  if (!kb) throw new Error(`no knowledge base '${kbId}'`);
  const model = kb.settings.embedding_model;
  const embedder = await embedderOf(kb, embedders, opts.workspaceModels);

  let version = (await readModels.getVersioned<ProgressDoc>(REINDEX_PROGRESS, kbId))?.position ?? 0n;
  const save = async (doc: ProgressDoc | null) => {
    // Versions only need to grow, across runs too: the clock in ms, bumped past the last one.
    version = BigInt(Math.max(Number(version) + 1, now().getTime()));
    await readModels.commit([doc ? { op: 'put', collection: REINDEX_PROGRESS, id: kbId, doc, position: version } : { op: 'delete', collection: REINDEX_PROGRESS, id: kbId, position: version }]);
  };
  const earlier = restart ? null : await readModels.get<ProgressDoc>(REINDEX_PROGRESS, kbId);
  const resumed = earlier !== null && earlier.model === model;
  const state: ProgressDoc = resumed ? earlier : { id: kbId, model, after: null, documents: 0, chunks: 0, started_at: now().toISOString() };
  if (!resumed) await vectors.deleteNamespace(kbId);
  const progress: ReindexProgress = {
    documents: state.documents,
    chunks: state.chunks,
    totalDocuments: await countAnswering(readModels, kbId),
    resumed,
    after: state.after,
  };
  // Documents made ready during the run are re-embedded too: done may pass the total read at the start.
  state.total = progress.totalDocuments;
  await save(state);
  onProgress?.(progress);
  for (;;) {
    const page = await readModels.find<DocumentDoc>('documents', { where: { knowledge_base_id: kbId }, order: 'asc', after: state.after ?? undefined, limit: 50 });
    if (page.length === 0) break;
    for (const doc of page) {
      if (currentVersionOf(doc) === 0) {
        // Nothing answers from it (never ready): nothing to index; the indexer does it when it is.
        state.after = doc.id;
        continue;
      }
      const indexed = await reindexDocument({ store, vectors, passages, embedder, batchSize }, kbId, doc);
      state.after = doc.id;
      state.documents += 1;
      state.chunks += indexed;
      await save(state);
      Object.assign(progress, { documents: state.documents, chunks: state.chunks, after: state.after });
      onProgress?.(progress);
    }
  }
  await save(null);
  return { ...progress, startedAt: state.started_at };
}

/** Embeds and writes the current version's chunks of one document; the number of chunks. */
async function reindexDocument(deps: { store: EventStore; vectors: VectorIndex; passages: PassageStore; embedder: Embedder; batchSize: number }, kbId: string, doc: DocumentDoc): Promise<number> {
  const { store, vectors, passages, embedder, batchSize } = deps;
  const lifecycle = await store.readStream(documentDecider.streamId(doc.id));
  const { version, chunks } = await currentChunks(store, lifecycle);
  // The answering version's name: a newer version (failed or in flight) may have been renamed.
  const name = versionsOf(doc).find((v) => v.version === version)?.name ?? doc.name;
  for (let start = 0; start < chunks.length; start += batchSize) {
    const slice = chunks.slice(start, start + batchSize);
    const embeddings = await embedder.embed(slice.map((c) => underHeadings(c.heading_path, c.text)));
    await vectors.upsert(kbId, slice.map((c, i) => ({ id: c.chunk_id, documentId: doc.id, values: embeddings[i]! })));
    await passages.upsert(kbId, slice.map((c) => passageOf(doc.id, name, c, { first: version, last: version })));
  }
  return chunks.length;
}

/** The documents of a knowledge base that answer (the read model filters by equality only: counted in pages). */
async function countAnswering(readModels: ReadModelStore, kbId: string): Promise<number> {
  let total = 0;
  for (let after: string | undefined; ; ) {
    const page = await readModels.find<DocumentDoc>('documents', { where: { knowledge_base_id: kbId }, order: 'asc', after, limit: 500 });
    if (page.length === 0) return total;
    total += page.filter((d) => currentVersionOf(d) > 0).length;
    after = page.at(-1)!.id;
  }
}

/** The version that answers (a newer one may be on its way, or have failed), and its chunks. */
async function currentChunks(store: EventStore, lifecycle: readonly RecordedEvent[]) {
  const parsed = currentParse(lifecycle);
  return { version: parsed?.version ?? 1, chunks: parsed ? await readParsedChunks(store, parsed, lifecycle) : [] };
}

/** Where the knowledge base's unfinished reindex stands, for its readers (null: none under way). */
export const reindexProgressOf = (readModels: ReadModelStore, kbId: string) => readModels.get<ProgressDoc>(REINDEX_PROGRESS, kbId);
