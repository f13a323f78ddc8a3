import type { z } from 'zod';
import type { KnowledgeBaseDoc } from '../../projections/knowledge-bases/index.ts';
import type { ChunkRecord } from '../../schemas/events/document.ts';
import type { EventData } from '../../schemas/events/index.ts';
import { foldStream, handleCommand, type Known } from '../../src/app/command-handler.ts';
import { type AppContext, commandMetadata } from '../../src/app/context.ts';
import { publishProgress } from '../../src/app/document-feed.ts';
import type { LiveFeed } from '../../src/app/live-feed.ts';
import { passageOf, readParsedChunks } from '../../src/app/document-chunks.ts';
import { documentDecider, type DocumentState } from '../../src/domain/document/document.ts';
import { isDocumentFailureCode } from '../../src/domain/document/failures.ts';
import { extractEntities } from '../../src/domain/document/entities.ts';
import { underHeadings } from '../../src/domain/retrieval/passage-text.ts';
import { assertNever } from '../../src/domain/shared/decider.ts';
import { DomainError } from '../../src/domain/shared/errors.ts';
import type { EntityGraph } from '../../src/ports/entity-graph.ts';
import type { ConsumerGroup } from '../../src/ports/event-bus.ts';
import type { RecordedEvent } from '../../src/ports/event-store.ts';
import type { KeywordIndex } from '../../src/ports/keyword-index.ts';
import type { Embedder } from '../../src/ports/models.ts';
import type { Passage, PassageStore } from '../../src/ports/passage-store.ts';
import type { VectorIndex } from '../../src/ports/vector-index.ts';
import type { WorkspaceModelResolver } from '../../src/app/services/workspace-models.ts';
import { ApiError } from '../../src/ports/api-error.ts';
import { defineConsumer, failDocument, type FailureLog } from '../shared.ts';

export type IndexerDeps = {
  ctx: AppContext;
  embedders: ReadonlyMap<string, Embedder>;
  /** The embedding models of a knowledge base's workspace's providers (`{provider}/{model}`), resolved by that workspace. */
  workspaceModels?: Pick<WorkspaceModelResolver, 'embedder'>;
  vectors: VectorIndex;
  keywords: KeywordIndex;
  graph: EntityGraph;
  passages: PassageStore;
  feed: LiveFeed;
  embedBatchSize?: number;
  /** Hears each document this consumer fails (warn, with its code). */
  logger?: FailureLog;
};

type Chunk = z.infer<typeof ChunkRecord>;
type Parsed = EventData<'DocumentParsed'>;

/** What retrieval matches against: the chunk's text under its headings. */
export const indexedText = (chunk: Pick<Chunk, 'heading_path' | 'text'>) => underHeadings(chunk.heading_path, chunk.text);

/**
 * DocumentParsed → embeddings, vector index, keyword index, entity graph, passages → DocumentIndexed.
 * Every write is an upsert by chunk id, so a redelivered event re-indexes the same chunks in place.
 * DocumentDeleted and KnowledgeBaseDeleted take chunks back out of all of them.
 *
 * A new version (issue 44) indexes only the chunks it does not share with what is indexed already:
 * a chunk's id is its content (domain/document/chunk-identity.ts), so a shared chunk is found in the
 * passage store, and only its passage is written again, its version range widened. The chunks that
 * only the new version has stay out of answers (their range starts after the current version)
 * until DocumentIndexed makes it current; DocumentVersionSuperseded then removes the chunks only
 * older versions had from every index.
 */
export function indexerConsumer(deps: IndexerDeps): ConsumerGroup {
  return defineConsumer({
    name: 'indexer',
    eventTypes: ['DocumentParsed', 'DocumentVersionSuperseded', 'DocumentVersionPurged', 'DocumentDeleted', 'KnowledgeBaseDeleted'],
    batchSize: 32,
    async handle(batch) {
      // Consecutive parsed documents are indexed together: one embedding call and one write per index.
      let parsed: Parsed[] = [];
      for (const event of batch) {
        if (event.type === 'DocumentParsed') {
          parsed.push(event.data);
          continue;
        }
        await indexDocuments(deps, parsed);
        parsed = [];
        await removeFromIndexes(deps, event);
        if (event.type === 'DocumentVersionSuperseded') await applyRetention(deps, event.data);
      }
      await indexDocuments(deps, parsed);
    },
    onParked: async (event, error) => {
      if (event.type !== 'DocumentParsed') return;
      // A provider's failure (unreachable, refused key …) keeps its code and cause, so the document's error says what to fix.
      // (Its message, already scrubbed of the key by the adapter, is the detail; a code the catalogue lacks is the general one.)
      if (error instanceof ApiError) {
        const code = isDocumentFailureCode(error.code) ? error.code : 'document_failed';
        return failDocument(deps.ctx, event.data.document_id, { stage: 'indexing', code, detail: error.message, version: event.data.version ?? 1 }, deps.logger);
      }
      const detail = error instanceof Error ? error.message : String(error);
      await failDocument(deps.ctx, event.data.document_id, { stage: 'indexing', code: 'internal_error', detail, version: event.data.version ?? 1 }, deps.logger);
    },
  });
}

/** Every chunk of a document, whatever its version: the passage store's listing in one page. */
const ALL_CHUNKS = 1_000_000;

type Indexes = Pick<IndexerDeps, 'vectors' | 'keywords' | 'graph' | 'passages'>;

/** The document's chunks that `retire` picks, out of every index; the passages last (a hit needs one). */
async function removeChunks({ vectors, keywords, graph, passages }: Indexes, kb: string, doc: string, retire: (p: Passage) => boolean) {
  const all = await passages.listByDocument(kb, doc, { limit: ALL_CHUNKS });
  const retired = all.filter(retire).map((p) => p.chunkId);
  if (retired.length === 0) return;
  await Promise.all([vectors.deleteChunks(kb, retired), keywords.deleteChunks(kb, retired), graph.deleteChunks(kb, retired)]);
  await passages.deleteChunks(kb, retired);
}

/** keep_versions: once a version is replaced, the versions past the number kept are purged (the decider picks them). */
async function applyRetention({ ctx }: IndexerDeps, data: EventData<'DocumentVersionSuperseded'>) {
  const kb = await ctx.readModels.get<KnowledgeBaseDoc>('knowledge_bases', data.knowledge_base_id);
  const keep = kb?.settings.keep_versions;
  if (keep === undefined || keep === null) return;
  await handleCommand(ctx.store, documentDecider, data.document_id, { type: 'PurgeVersions', data: { document_id: data.document_id, keep }, metadata: commandMetadata(ctx, 'retention') });
}

async function removeFromIndexes({ vectors, keywords, graph, passages }: IndexerDeps, event: RecordedEvent<'DocumentVersionSuperseded' | 'DocumentVersionPurged' | 'DocumentDeleted' | 'KnowledgeBaseDeleted'>) {
  switch (event.type) {
    case 'DocumentVersionSuperseded': {
      // The replaced version's chunks stay, their range closed, for as_of (docs/decisions.md): no
      // current answer can see them (hits.ts). Only what never answered goes: chunks of versions
      // between the replaced one and the new one (failed, or overtaken), which no time can ask for.
      const { knowledge_base_id: kb, document_id: doc, version: replaced, superseded_by: current } = event.data;
      await removeChunks({ vectors, keywords, graph, passages }, kb, doc, (p) => (p.firstVersion ?? 1) > replaced && (p.lastVersion ?? 1) < current);
      return;
    }
    case 'DocumentVersionPurged': {
      // Retention: what only the purged version and older ones held (purges go oldest first).
      const { knowledge_base_id: kb, document_id: doc, version } = event.data;
      await removeChunks({ vectors, keywords, graph, passages }, kb, doc, (p) => (p.lastVersion ?? 1) <= version);
      return;
    }
    case 'DocumentDeleted': {
      const { knowledge_base_id: kb, document_id: doc } = event.data;
      await Promise.all([
        vectors.deleteByDocument(kb, doc),
        keywords.deleteByDocument(kb, doc),
        graph.deleteByDocument(kb, doc),
        passages.deleteByDocument(kb, doc),
      ]);
      return;
    }
    case 'KnowledgeBaseDeleted': {
      const kb = event.data.knowledge_base_id;
      await Promise.all([vectors.deleteNamespace(kb), keywords.deleteNamespace(kb), graph.deleteNamespace(kb), passages.deleteNamespace(kb)]);
      return;
    }
    default:
      return assertNever(event);
  }
}

type Work = {
  id: string;
  kbId: string;
  name: string;
  version: number;
  /** The chunks to embed and index; `reused`: those an earlier version indexed already, whose passages only are written again. */
  chunks: Chunk[];
  reused: { chunk: Chunk; firstVersion: number }[];
  embedder: Embedder;
  language: string;
  known: Known<DocumentState>;
};

/**
 * Which of the parsed documents still need indexing, with their chunks and their knowledge base's
 * embedder. Each document's lifecycle is read once (its state and revision go on to RecordIndexed)
 * and the chunk stream of its parsed attempt once.
 */
async function gather(deps: IndexerDeps, parsed: Parsed[]): Promise<Work[]> {
  const { ctx } = deps;
  const work: Work[] = [];
  for (const p of parsed) {
    const { document_id: id, knowledge_base_id: kbId } = p;
    const streamId = documentDecider.streamId(id);
    const lifecycle = await ctx.store.readStream(streamId);
    const state = foldStream(documentDecider, streamId, lifecycle);
    if (state.status !== 'indexing' || !('version' in state) || state.version !== (p.version ?? 1)) continue;
    const kb = await ctx.readModels.get<KnowledgeBaseDoc>('knowledge_bases', kbId);
    if (!kb) {
      await failDocument(ctx, id, { stage: 'indexing', code: 'knowledge_base_deleted' }, deps.logger);
      continue;
    }
    const embedder = deps.embedders.get(kb.settings.embedding_model) ?? (await deps.workspaceModels?.embedder(kb.workspace_id, kb.settings.embedding_model));
    if (!embedder) {
      await failDocument(ctx, id, { stage: 'indexing', code: 'model_unavailable', detail: `Embedding model ${kb.settings.embedding_model} is not available.` }, deps.logger);
      continue;
    }
    const parsedChunks = await readParsedChunks(ctx.store, p, lifecycle);
    const version = p.version ?? 1;
    // A chunk indexed already (by an earlier version, or by this one before a redelivery) has the same id: only its passage is written again.
    const indexed = version > 1 ? await deps.passages.get(kbId, parsedChunks.map((c) => c.chunk_id)) : new Map<string, Passage>();
    const chunks = parsedChunks.filter((c) => !indexed.has(c.chunk_id));
    // A range says every version in it held the chunk: a chunk the current version lacks (an older
    // version's, kept for as_of, coming back in a restore) starts a range of its own here.
    const reused = parsedChunks.flatMap((chunk) => {
      const passage = indexed.get(chunk.chunk_id);
      if (!passage) return [];
      return [{ chunk, firstVersion: (passage.lastVersion ?? 1) >= state.currentVersion ? (passage.firstVersion ?? 1) : version }];
    });
    // Its name travels with each passage, so results need no document lookup: the version's own name.
    const name = nameOfVersion(lifecycle, version) ?? id;
    work.push({ id, kbId, name, version, chunks, reused, embedder, language: kb.settings.language ?? 'auto', known: { state, revision: lifecycle.at(-1)!.revision } });
  }
  return work;
}

/** The name a version was uploaded under (the first upload's for version 1). */
function nameOfVersion(lifecycle: readonly RecordedEvent[], version: number): string | null {
  for (const event of lifecycle) {
    if (version === 1 && event.type === 'DocumentUploaded') return event.data.name;
    if (event.type === 'DocumentVersionAdded' && event.data.version === version) return event.data.name;
  }
  return null;
}

/** Reused chunks: their passages again (placement and name as this version has them, the range widened), and their entities counted. */
async function writeReused(passages: PassageStore, w: Work, entities: Map<string, Set<string>>, indexed: Map<Work, number>) {
  if (w.reused.length === 0) return;
  const set = entities.get(w.id) ?? new Set<string>();
  for (const { chunk } of w.reused) extractEntities(indexedText(chunk)).forEach((e) => set.add(e));
  entities.set(w.id, set);
  await passages.upsert(w.kbId, w.reused.map(({ chunk, firstVersion }) => passageOf(w.id, w.name, chunk, { first: firstVersion, last: w.version })));
  indexed.set(w, w.reused.length);
}

async function indexDocuments(deps: IndexerDeps, parsed: Parsed[]) {
  if (parsed.length === 0) return;
  const { ctx, feed, vectors, keywords, graph, passages, embedBatchSize = 256 } = deps;
  const t0 = performance.now();
  const work = await gather(deps, parsed);
  const entities = new Map<string, Set<string>>();
  const indexed = new Map<Work, number>();
  for (const w of work) await writeReused(passages, w, entities, indexed);
  // Slices of at most embedBatchSize chunks, each within one knowledge base and one embedder.
  const items = work.flatMap((w) => w.chunks.map((chunk) => ({ w, chunk })));
  for (let start = 0; start < items.length; ) {
    const { w: first } = items[start]!;
    let end = start;
    while (end < items.length && end - start < embedBatchSize && items[end]!.w.kbId === first.kbId && items[end]!.w.embedder === first.embedder) end++;
    const slice = items.slice(start, end);
    const texts = slice.map(({ chunk }) => indexedText(chunk));
    const embeddings = await first.embedder.embed(texts).catch((error: unknown) => {
      // The bus retries the batch, and in the end the document fails with this error; until then
      // its progress says why it is still indexing, not a silent wait.
      if (error instanceof ApiError) {
        for (const w of new Set(slice.map((item) => item.w))) {
          publishProgress(feed, { document_id: w.id, knowledge_base_id: w.kbId }, { stage: 'indexing', retrying: true, last_error: { code: error.code, message: error.message } });
        }
      }
      throw error;
    });
    const mentions = slice.map(({ w, chunk }, i) => ({ chunkId: chunk.chunk_id, documentId: w.id, entities: extractEntities(texts[i]!) }));
    for (const m of mentions) {
      const set = entities.get(m.documentId) ?? new Set();
      m.entities.forEach((e) => set.add(e));
      entities.set(m.documentId, set);
    }
    await vectors.upsert(first.kbId, slice.map(({ w, chunk }, i) => ({ id: chunk.chunk_id, documentId: w.id, values: embeddings[i]! })));
    await keywords.upsert(first.kbId, slice.map(({ w, chunk }, i) => ({ id: chunk.chunk_id, documentId: w.id, text: texts[i]! })), { language: first.language });
    await graph.upsert(first.kbId, mentions);
    await passages.upsert(first.kbId, slice.map(({ w, chunk }) => passageOf(w.id, w.name, chunk, { first: w.version, last: w.version })));
    for (const { w } of slice) indexed.set(w, (indexed.get(w) ?? 0) + 1);
    for (const w of new Set(slice.map((s) => s.w))) {
      publishProgress(feed, { document_id: w.id, knowledge_base_id: w.kbId }, { stage: 'indexing', chunks_indexed: indexed.get(w), chunk_count: w.chunks.length + w.reused.length });
    }
    start = end;
  }
  const indexMs = Math.round(performance.now() - t0);
  for (const w of work) {
    try {
      await handleCommand(
        ctx.store,
        documentDecider,
        w.id,
        {
          type: 'RecordIndexed',
          data: {
            document_id: w.id,
            ...(w.version > 1 && { version: w.version, reused_chunk_count: w.reused.length }),
            entity_count: entities.get(w.id)?.size ?? 0,
            embedding_model: w.embedder.model.id,
            index_ms: indexMs,
          },
          metadata: commandMetadata(ctx, 'indexer'),
        },
        { known: w.known },
      );
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
}
