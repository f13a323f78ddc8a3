import { refuseWhileAgentsUse } from './agent-references.ts';
import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import type { z } from 'zod';
import type { VectorStoreSettings as VectorStoreSettingsSchema } from '../../../schemas/events/knowledge-base.ts';
import type { KnowledgeBase, Reindex } from '../../../schemas/http/knowledge-bases.ts';
import type { KnowledgeBaseSettingsPatch } from '../../../schemas/knowledge-base-settings.ts';
import { knowledgeBaseDecider } from '../../domain/knowledge-base/knowledge-base.ts';
import { handleCommand } from '../command-handler.ts';
import { type AppContext, commandMetadata, settled } from '../context.ts';
import { notAModelMessage } from '../../domain/shared/errors.ts';
import { badRequest, forbidden } from '../errors.ts';
import type { ModelCatalog } from './models.ts';
import type { WorkspaceModelResolver } from './workspace-models.ts';
import { requireKnowledgeBase } from './knowledge-base-access.ts';
import { reindexesOf } from './knowledge-base-reindex.ts';
import { type KnowledgeBaseWithTotals, withTotals } from './knowledge-base-totals.ts';
import { findPage, type PageRequest } from './paging.ts';
import { type Principal, requireKnowledgeBaseAccess, visibleTo } from './principal.ts';

/** `vector_store`: what the vector-store API keeps for its clients (vector-stores.ts); the knowledge-base API neither takes nor shows it. */
export type KnowledgeBaseInput = { name: string; description?: string | null; settings?: KnowledgeBaseSettingsPatch; vector_store?: VectorStoreSettings };
export type KnowledgeBasePatch = { name?: string; description?: string | null; settings?: KnowledgeBaseSettingsPatch; vector_store?: VectorStoreSettings };

export function presentKnowledgeBase({ workspace_id: _ws, revision: _rev, vector_store: _vs, reindex: _ri, ...visible }: KnowledgeBaseWithTotals, reindex: Reindex | null): KnowledgeBase {
  return { ...visible, reindex };
}

/** The knowledge bases as the API shows them: with their totals and their last re-index. */
async function presented(readModels: AppContext['readModels'], docs: readonly KnowledgeBaseDoc[]) {
  const [withCounts, reindexes] = await Promise.all([withTotals(readModels, docs), reindexesOf(readModels, docs)]);
  return withCounts.map((doc, i) => presentKnowledgeBase(doc, reindexes[i]!));
}

type VectorStoreSettings = z.infer<typeof VectorStoreSettingsSchema>;

export type KnowledgeBaseView = { body: ReturnType<typeof presentKnowledgeBase>; revision: number };

/** `workspaceModels`: settings may name the embedding and rerank models of the workspace's own providers (`{provider}/{model}`). */
export function createKnowledgeBaseService(ctx: AppContext, models: ModelCatalog, workspaceModels?: Pick<WorkspaceModelResolver, 'entryOf'>) {
  /**
   * Settings that name models must name one of this deployment's, or of the workspace's providers,
   * of the right kind; a provider's embedding model must say its dimensions, which the index is made for.
   */
  const checkModels = async (workspaceId: string, settings: KnowledgeBaseSettingsPatch | undefined) => {
    const named = [
      { param: 'settings.embedding_model', id: settings?.embedding_model, kind: 'embedding' },
      { param: 'settings.rerank.model', id: settings?.rerank?.model, kind: 'rerank' },
    ] as const;
    for (const { param, id, kind } of named) {
      if (id === undefined || id === null || models.get(id)?.kind === kind) continue;
      const why = models.unavailable(id);
      if (why) throw badRequest('model_not_installed', `${param}: ${why}`, param);
      const entry = await workspaceModels?.entryOf(workspaceId, id, kind);
      if (!entry) throw badRequest('model_not_found', `${param}: ${notAModelMessage(id, kind)}`, param);
      if (kind === 'embedding' && entry.dimensions === undefined) {
        const message = `${param}: ${id} has no dimensions in its provider's models; PATCH the provider's models with the model's dimensions first.`;
        throw badRequest('model_dimensions_unknown', message, param);
      }
    }
  };

  async function view(principal: Principal, id: string): Promise<KnowledgeBaseView> {
    const doc = await requireKnowledgeBase(ctx.readModels, principal, id);
    const [body] = await presented(ctx.readModels, [doc]);
    return { body: body!, revision: doc.revision };
  }

  return {
    get: (principal: Principal, id: string) => view(principal, id),

    async create(principal: Principal, input: KnowledgeBaseInput, correlationId?: string) {
      if (principal.knowledgeBaseIds !== null) {
        throw forbidden('knowledge_base_not_allowed', 'A key limited to certain knowledge bases cannot create new ones.');
      }
      await checkModels(principal.workspaceId, input.settings);
      const id = ctx.newId('kb');
      const result = await handleCommand(ctx.store, knowledgeBaseDecider, id, {
        type: 'CreateKnowledgeBase',
        data: {
          knowledge_base_id: id,
          workspace_id: principal.workspaceId,
          name: input.name,
          description: input.description ?? null,
          settings: input.settings ?? {},
          default_embedding_model: models.defaultEmbeddingModel,
          ...(input.vector_store && { vector_store: input.vector_store }),
        },
        metadata: commandMetadata(ctx, principal.keyId, correlationId),
      });
      await settled(ctx, result);
      return view(principal, id);
    },

    async update(principal: Principal, id: string, patch: KnowledgeBasePatch, expectedRevision?: number, correlationId?: string) {
      requireKnowledgeBaseAccess(principal, id);
      await checkModels(principal.workspaceId, patch.settings);
      const result = await handleCommand(
        ctx.store,
        knowledgeBaseDecider,
        id,
        { type: 'UpdateKnowledgeBase', data: { knowledge_base_id: id, workspace_id: principal.workspaceId, ...patch }, metadata: commandMetadata(ctx, principal.keyId, correlationId) },
        { expectedRevision },
      );
      await settled(ctx, result);
      return view(principal, id);
    },

    async remove(principal: Principal, id: string, expectedRevision?: number, correlationId?: string) {
      requireKnowledgeBaseAccess(principal, id);
      await refuseWhileAgentsUse(ctx.readModels, principal, { knowledgeBaseId: id }, `knowledge base '${id}'`);
      const result = await handleCommand(
        ctx.store,
        knowledgeBaseDecider,
        id,
        { type: 'DeleteKnowledgeBase', data: { knowledge_base_id: id, workspace_id: principal.workspaceId }, metadata: commandMetadata(ctx, principal.keyId, correlationId) },
        { expectedRevision },
      );
      await settled(ctx, result);
      return { id, object: 'knowledge_base.deleted' as const, deleted: true };
    },

    async list(principal: Principal, page: PageRequest) {
      const visible = visibleTo(principal, (kb: KnowledgeBaseDoc) => [kb.id]);
      const result = await findPage(ctx.readModels, 'knowledge_bases', { workspace_id: principal.workspaceId }, page, { visible });
      return { ...result, data: await presented(ctx.readModels, result.data) };
    },

    /**
     * Asks for a re-index: the reindexer consumer re-embeds the ready documents with the current
     * embedding model (app/reindex.ts, what `kbqa reindex` runs). 409 reindex_in_progress while one is
     * queued or running.
     */
    async reindex(principal: Principal, id: string, correlationId?: string): Promise<Reindex> {
      // As for an update: the decider answers a missing knowledge base, or another workspace's, with 404.
      requireKnowledgeBaseAccess(principal, id);
      const reindexId = ctx.newId('reindex');
      const result = await handleCommand(ctx.store, knowledgeBaseDecider, id, {
        type: 'RequestReindex',
        data: { knowledge_base_id: id, workspace_id: principal.workspaceId, reindex_id: reindexId },
        metadata: commandMetadata(ctx, principal.keyId, correlationId),
      });
      await settled(ctx, result);
      const { body } = await view(principal, id);
      return body.reindex!;
    },
  };
}

export type KnowledgeBaseService = ReturnType<typeof createKnowledgeBaseService>;
