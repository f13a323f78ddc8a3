import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import type { KnowledgeBaseSettingsPatch } from '../../../schemas/knowledge-base-settings.ts';
import { knowledgeBaseDecider } from '../../domain/knowledge-base/knowledge-base.ts';
import { handleCommand } from '../command-handler.ts';
import { type AppContext, commandMetadata, settled } from '../context.ts';
import { badRequest, forbidden } from '../errors.ts';
import type { ModelCatalog } from './models.ts';
import { requireKnowledgeBase } from './knowledge-base-access.ts';
import { type KnowledgeBaseWithTotals, withTotals } from './knowledge-base-totals.ts';
import { findPage, type PageRequest } from './paging.ts';
import { type Principal, requireKnowledgeBaseAccess } from './principal.ts';

export type KnowledgeBaseInput = { name: string; description?: string | null; settings?: KnowledgeBaseSettingsPatch };
export type KnowledgeBasePatch = { name?: string; description?: string | null; settings?: KnowledgeBaseSettingsPatch };

export function presentKnowledgeBase({ workspace_id: _ws, revision: _rev, ...visible }: KnowledgeBaseWithTotals) {
  return visible;
}

export type KnowledgeBaseView = { body: ReturnType<typeof presentKnowledgeBase>; revision: number };

export function createKnowledgeBaseService(ctx: AppContext, models: ModelCatalog) {
  const checkEmbeddingModel = (settings: KnowledgeBaseSettingsPatch | undefined) => {
    const id = settings?.embedding_model;
    if (id !== undefined && models.get(id)?.kind !== 'embedding') {
      throw badRequest('model_not_found', `settings.embedding_model: '${id}' is not an embedding model of this deployment (see GET /v1/models)`, 'settings.embedding_model');
    }
  };

  async function view(principal: Principal, id: string): Promise<KnowledgeBaseView> {
    const [doc] = await withTotals(ctx.readModels, [await requireKnowledgeBase(ctx.readModels, principal, id)]);
    return { body: presentKnowledgeBase(doc!), revision: doc!.revision };
  }

  return {
    get: (principal: Principal, id: string) => view(principal, id),

    async create(principal: Principal, input: KnowledgeBaseInput, correlationId?: string) {
      if (principal.knowledgeBaseIds !== null) {
        throw forbidden('knowledge_base_not_allowed', 'a key limited to certain knowledge bases cannot create new ones');
      }
      checkEmbeddingModel(input.settings);
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
        },
        metadata: commandMetadata(ctx, principal.keyId, correlationId),
      });
      await settled(ctx, result);
      return view(principal, id);
    },

    async update(principal: Principal, id: string, patch: KnowledgeBasePatch, expectedRevision?: number, correlationId?: string) {
      requireKnowledgeBaseAccess(principal, id);
      checkEmbeddingModel(patch.settings);
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

    list(principal: Principal, page: PageRequest) {
      return findPage(ctx.readModels, 'knowledge_bases', { workspace_id: principal.workspaceId }, page, (kb: KnowledgeBaseDoc) => kb).then(
        async (result) => {
          const allowed = principal.knowledgeBaseIds;
          const visible = allowed === null ? result.data : result.data.filter((kb) => allowed.includes(kb.id));
          return { ...result, data: (await withTotals(ctx.readModels, visible)).map(presentKnowledgeBase) };
        },
      );
    },
  };
}

export type KnowledgeBaseService = ReturnType<typeof createKnowledgeBaseService>;
