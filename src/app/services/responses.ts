import type { z } from 'zod';
import type { DocumentDoc } from '../../../projections/documents/index.ts';
import type { ResponseDoc } from '../../../projections/responses/index.ts';
import type { ResponseStored } from '../../../schemas/events/response.ts';
import { responseDecider } from '../../domain/response/response.ts';
import type { ChatMessage } from '../../ports/models.ts';
import { handleCommand } from '../command-handler.ts';
import { type AppContext, commandMetadata, settled } from '../context.ts';
import { ApiError } from '../../ports/api-error.ts';
import type { Principal } from './principal.ts';
import { requireProvenanceAccess } from './provenance.ts';
import type { SearchService } from './search.ts';
import { fileIdsOf } from './file-links.ts';

type Stored = z.infer<typeof ResponseStored>;
export type StoreResponse = Omit<Stored, 'stored_at' | 'workspace_id' | 'api_key_id' | 'conversation'> & { conversation: ChatMessage[] };

export type ResponsesDeps = { ctx: AppContext; search: SearchService };

/**
 * Stored Responses API answers, one stream each (`response-{id}`), read from the `responses` read
 * model; storing or deleting one answers once the read model shows it. A key reads one back when it is
 * of the response's workspace and may read every knowledge base of its provenance (provenance.ts); otherwise,
 * as for a deleted or unknown id, the response is not found.
 */
export function createResponsesService({ ctx, search }: ResponsesDeps) {
  async function load(principal: Principal, id: string): Promise<ResponseDoc> {
    const notFound = new ApiError(404, 'not_found_error', 'response_not_found', `No response ${id}.`, { param: 'response_id' });
    const doc = await ctx.readModels.get<ResponseDoc>('responses', id);
    if (!doc || doc.workspace_id !== principal.workspaceId) throw notFound;
    try {
      requireProvenanceAccess(principal, doc.knowledge_base_ids);
      // And each still exists: a response built from a deleted knowledge base goes with it.
      await search.knowledgeBases(principal, doc.knowledge_base_ids);
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) throw notFound;
      throw error;
    }
    return doc;
  }

  return {
    /** The file ids file_citation annotations name the cited documents by (file-links.ts). */
    async fileIds(principal: Principal, documentIds: readonly string[]): Promise<Map<string, string>> {
      const docs = await ctx.readModels.getMany<DocumentDoc>('documents', [...new Set(documentIds)]);
      const ids = await fileIdsOf(ctx.readModels, principal.workspaceId, [...docs.values()]);
      for (const id of documentIds) if (!ids.has(id)) ids.set(id, id);
      return ids;
    },
    /** The stored response as it was returned. */
    get: async (principal: Principal, id: string) => (await load(principal, id)).response,
    inputItems: async (principal: Principal, id: string) => (await load(principal, id)).input_items,
    /** One output item of a stored response, by its id (an item_reference names it). */
    async outputItem(principal: Principal, responseId: string, itemId: string): Promise<{ item: Record<string, unknown>; knowledgeBaseIds: string[] }> {
      const doc = await load(principal, responseId);
      const item = (doc.response.output as Record<string, unknown>[]).find((o) => o.id === itemId);
      if (!item) throw new ApiError(404, 'not_found_error', 'item_not_found', `No item ${itemId} in response ${responseId}.`, { param: 'input' });
      return { item, knowledgeBaseIds: doc.knowledge_base_ids };
    },
    /** The conversation to continue: the stored one, ending with the stored answer, and the knowledge bases its content came from. */
    async conversation(principal: Principal, id: string): Promise<{ messages: ChatMessage[]; knowledgeBaseIds: string[] }> {
      const doc = await load(principal, id);
      const messages = doc.conversation.map(({ role, content, tool_calls, tool_call_id }) => ({
        role,
        content,
        ...(tool_calls && { toolCalls: tool_calls }),
        ...(tool_call_id !== undefined && { toolCallId: tool_call_id }),
      }));
      return { messages, knowledgeBaseIds: doc.knowledge_base_ids };
    },
    async store(principal: Principal, data: StoreResponse): Promise<void> {
      const conversation = data.conversation.map(({ role, content, toolCalls, toolCallId }) => ({
        role,
        content,
        ...(toolCalls?.length && { tool_calls: toolCalls }),
        ...(toolCallId !== undefined && { tool_call_id: toolCallId }),
      }));
      const result = await handleCommand(ctx.store, responseDecider, data.response_id, {
        type: 'StoreResponse',
        data: { ...data, conversation, workspace_id: principal.workspaceId, api_key_id: principal.keyId },
        metadata: commandMetadata(ctx, principal.keyId),
      });
      await settled(ctx, result);
    },
    async delete(principal: Principal, id: string): Promise<void> {
      await load(principal, id);
      const result = await handleCommand(ctx.store, responseDecider, id, { type: 'DeleteResponse', data: { response_id: id }, metadata: commandMetadata(ctx, principal.keyId) });
      await settled(ctx, result);
    },
  };
}

export type ResponsesService = ReturnType<typeof createResponsesService>;
