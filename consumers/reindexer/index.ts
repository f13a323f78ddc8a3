import { foldStream, handleCommand } from '../../src/app/command-handler.ts';
import { type AppContext, commandMetadata } from '../../src/app/context.ts';
import { reindexKnowledgeBase } from '../../src/app/reindex.ts';
import type { WorkspaceModelResolver } from '../../src/app/services/workspace-models.ts';
import { knowledgeBaseDecider } from '../../src/domain/knowledge-base/knowledge-base.ts';
import { ApiError } from '../../src/ports/api-error.ts';
import type { ConsumerGroup } from '../../src/ports/event-bus.ts';
import type { RecordedEvent } from '../../src/ports/event-store.ts';
import type { Embedder } from '../../src/ports/models.ts';
import type { PassageStore } from '../../src/ports/passage-store.ts';
import type { VectorIndex } from '../../src/ports/vector-index.ts';
import { defineConsumer, type FailureLog } from '../shared.ts';

export type ReindexerDeps = {
  ctx: AppContext;
  embedders: ReadonlyMap<string, Embedder>;
  workspaceModels?: Pick<WorkspaceModelResolver, 'embedder'>;
  vectors: VectorIndex;
  passages: PassageStore;
  logger?: FailureLog & { info(obj: object, msg: string): void };
};

/**
 * KnowledgeBaseReindexRequested → the re-embedding `kbqa reindex` runs (app/reindex.ts) →
 * KnowledgeBaseReindexed, or KnowledgeBaseReindexFailed with the reason. A group of its own, so
 * a long re-index holds up no document's indexing. Redelivered after a crash, the request resumes
 * after the last document finished (the progress record); heard after its end, it is left alone.
 */
export function reindexerConsumer(deps: ReindexerDeps): ConsumerGroup {
  return defineConsumer({
    name: 'reindexer',
    eventTypes: ['KnowledgeBaseReindexRequested'],
    batchSize: 1,
    async handle(batch) {
      for (const event of batch) await reindex(deps, event);
    },
    // Parked (its end could not be written, again and again): ended failed, so the knowledge base is not refused new ones (409) for ever.
    onParked: async (event, error) => {
      const { knowledge_base_id: kbId, reindex_id } = event.data;
      const message = error instanceof Error ? error.message : String(error);
      await handleCommand(deps.ctx.store, knowledgeBaseDecider, kbId, { type: 'FailReindex', data: { knowledge_base_id: kbId, reindex_id, code: 'internal_error', message }, metadata: commandMetadata(deps.ctx, 'reindexer') });
    },
  });
}

async function reindex(deps: ReindexerDeps, event: RecordedEvent<'KnowledgeBaseReindexRequested'>) {
  const { knowledge_base_id: kbId, reindex_id } = event.data;
  const { ctx } = deps;
  const streamId = knowledgeBaseDecider.streamId(kbId);
  const state = foldStream(knowledgeBaseDecider, streamId, await ctx.store.readStream(streamId));
  if (state.status !== 'active' || state.reindexing !== reindex_id) return;
  try {
    const result = await reindexKnowledgeBase({
      store: ctx.store,
      readModels: ctx.readModels,
      vectors: deps.vectors,
      passages: deps.passages,
      embedders: deps.embedders,
      ...(deps.workspaceModels && { workspaceModels: deps.workspaceModels }),
      knowledgeBaseId: kbId,
      now: ctx.now,
    });
    const data = { knowledge_base_id: kbId, reindex_id, documents: result.documents, chunks: result.chunks, started_at: result.startedAt };
    await handleCommand(ctx.store, knowledgeBaseDecider, kbId, { type: 'FinishReindex', data, metadata: commandMetadata(ctx, 'reindexer') });
    deps.logger?.info({ knowledgeBaseId: kbId, reindexId: reindex_id, documents: result.documents, chunks: result.chunks }, 'knowledge base re-indexed');
  } catch (error) {
    // Every failure ends this re-index (a provider down, a model no longer served …): the client sees why and asks again.
    const code = error instanceof ApiError ? error.code : 'reindex_failed';
    const message = error instanceof Error ? error.message : String(error);
    await handleCommand(ctx.store, knowledgeBaseDecider, kbId, { type: 'FailReindex', data: { knowledge_base_id: kbId, reindex_id, code, message }, metadata: commandMetadata(ctx, 'reindexer') });
    deps.logger?.warn({ knowledgeBaseId: kbId, reindexId: reindex_id, code, reason: message }, 'knowledge base re-index failed');
  }
}
