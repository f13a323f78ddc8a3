import type { z } from 'zod';
import type { ConversationDoc, ConversationItemDoc } from '../../../projections/conversations/index.ts';
import type { ConversationAnnotation, ConversationItem } from '../../../schemas/events/conversation.ts';
import type { Conversation } from '../../../schemas/http/conversations.ts';
import { batchItems } from '../../domain/conversation/batches.ts';
import { conversationDecider, type ConversationCommand } from '../../domain/conversation/conversation.ts';
import type { ChatMessage } from '../../ports/models.ts';
import { handleCommand } from '../command-handler.ts';
import { type AppContext, commandMetadata, settled } from '../context.ts';
import { notFoundError, resourceNotFound } from '../errors.ts';
import type { Page, PageRequest } from './paging.ts';
import type { Principal } from './principal.ts';
import { requireProvenanceAccess } from './provenance.ts';

export type Item = z.infer<typeof ConversationItem>;
type Role = Item['role'];
/** An item as a client or a chat hands it in: the service gives it its id and content types. */
export type NewItem = { role: Role; content: string | { text: string }[]; annotations?: z.infer<typeof ConversationAnnotation>[] };
/** Where appended items came from: a chat, and its provenance (the knowledge bases it searched or was built from, provenance.ts). */
export type ItemSource = { chatId: string; knowledgeBaseIds: string[] };

/** OpenAI's Conversation object. */
export const presentConversation = (doc: ConversationDoc): Conversation => ({
  id: doc.id,
  object: 'conversation' as const,
  created_at: Math.floor(Date.parse(doc.created_at) / 1000),
  metadata: doc.metadata,
});

const itemNotFound = (conversationId: string, id: string) =>
  notFoundError('item_not_found', `No item found with id '${id}' in conversation '${conversationId}'.`, 'item_id');

/**
 * Server-side conversations, OpenAI's Conversations API: they belong to the workspace; a key reads
 * or extends one when it may use every knowledge base of its provenance: all that its chats searched
 * or were built from (their answers quote them; provenance.ts).
 * Chat (and any other answerer) uses `history` and `append`.
 */
export function createConversationService(ctx: AppContext) {
  async function conversation(principal: Principal, id: string): Promise<ConversationDoc> {
    const doc = await ctx.readModels.get<ConversationDoc>('conversations', id);
    if (!doc || doc.workspace_id !== principal.workspaceId) throw resourceNotFound('conversation', id);
    requireProvenanceAccess(principal, doc.knowledge_base_ids);
    return doc;
  }

  function toItem({ role, content, annotations }: NewItem): Item {
    const type = role === 'assistant' ? 'output_text' : 'input_text';
    const parts = typeof content === 'string' ? [{ text: content }] : content;
    return {
      type: 'message',
      id: ctx.newId('msg'),
      role,
      status: 'completed',
      content: parts.map(({ text }, i) => ({ type, text, ...(i === 0 && annotations?.length && { annotations }) })),
    };
  }

  async function command(principal: Principal, id: string, cmd: Omit<ConversationCommand, 'metadata'>, correlationId?: string) {
    const result = await handleCommand(ctx.store, conversationDecider, id, { ...cmd, metadata: commandMetadata(ctx, principal.keyId, correlationId) } as ConversationCommand);
    await settled(ctx, result);
  }

  /** Appends in order, in as many events as their size needs (batchItems). */
  async function append(principal: Principal, id: string, items: NewItem[], source?: ItemSource): Promise<Item[]> {
    await conversation(principal, id);
    const made = items.map(toItem);
    const from = source && { chat_id: source.chatId, knowledge_base_ids: source.knowledgeBaseIds };
    for (const batch of batchItems(made)) {
      await command(principal, id, { type: 'AddItems', data: { conversation_id: id, workspace_id: principal.workspaceId, items: batch, ...from } });
    }
    return made;
  }

  /** The items of these ids, in their order, in one read. */
  async function itemsOf(ids: readonly string[]): Promise<Item[]> {
    const found = await ctx.readModels.getMany<ConversationItemDoc>('conversation_items', ids);
    return ids.flatMap((itemId) => {
      const doc = found.get(itemId);
      return doc ? [doc.item] : [];
    });
  }

  async function item(principal: Principal, id: string, itemId: string): Promise<ConversationItemDoc> {
    await conversation(principal, id);
    const doc = await ctx.readModels.get<ConversationItemDoc>('conversation_items', itemId);
    if (!doc || doc.conversation_id !== id) throw itemNotFound(id, itemId);
    return doc;
  }

  return {
    conversation,
    item,
    append,

    async create(principal: Principal, input: { items?: NewItem[]; metadata?: Record<string, string> | null }, correlationId?: string) {
      const id = ctx.newId('conv');
      const [first = [], ...rest] = batchItems((input.items ?? []).map(toItem));
      const data = { conversation_id: id, workspace_id: principal.workspaceId, metadata: input.metadata ?? {}, items: first };
      await command(principal, id, { type: 'CreateConversation', data }, correlationId);
      for (const batch of rest) await command(principal, id, { type: 'AddItems', data: { conversation_id: id, workspace_id: principal.workspaceId, items: batch } });
      return presentConversation(await conversation(principal, id));
    },

    get: async (principal: Principal, id: string) => presentConversation(await conversation(principal, id)),

    async update(principal: Principal, id: string, metadata: Record<string, string>, correlationId?: string) {
      await conversation(principal, id);
      await command(principal, id, { type: 'UpdateConversation', data: { conversation_id: id, workspace_id: principal.workspaceId, metadata } }, correlationId);
      return presentConversation(await conversation(principal, id));
    },

    async remove(principal: Principal, id: string, correlationId?: string) {
      await conversation(principal, id);
      await command(principal, id, { type: 'DeleteConversation', data: { conversation_id: id, workspace_id: principal.workspaceId } }, correlationId);
      return { id, object: 'conversation.deleted' as const, deleted: true as const };
    },

    async listItems(principal: Principal, id: string, page: PageRequest): Promise<Page<Item>> {
      const { item_ids } = await conversation(principal, id);
      // Item ids are time-ordered, so a cursor is a position in the list even after its item is deleted.
      const ordered = page.order === 'asc' ? item_ids : [...item_ids].reverse();
      const { after } = page;
      const rest = after === undefined ? ordered : ordered.filter((itemId) => (page.order === 'asc' ? itemId > after : itemId < after));
      const ids = rest.slice(0, page.limit);
      const data = await itemsOf(ids);
      return { object: 'list', data, has_more: rest.length > ids.length, first_id: ids[0] ?? null, last_id: ids.at(-1) ?? null };
    },

    async addItems(principal: Principal, id: string, items: NewItem[]) {
      const made = await append(principal, id, items);
      return { object: 'list' as const, data: made, first_id: made[0]!.id, last_id: made.at(-1)!.id, has_more: false };
    },

    getItem: async (principal: Principal, id: string, itemId: string) => (await item(principal, id, itemId)).item,

    /** OpenAI answers an item's deletion with the conversation it was deleted from. */
    async deleteItem(principal: Principal, id: string, itemId: string) {
      await item(principal, id, itemId);
      await command(principal, id, { type: 'DeleteItem', data: { conversation_id: id, workspace_id: principal.workspaceId, item_id: itemId } });
      return presentConversation(await conversation(principal, id));
    },

    /** The conversation so far as chat messages, oldest first (what a client would otherwise send again), and its provenance. */
    async history(principal: Principal, id: string): Promise<{ messages: ChatMessage[]; knowledgeBaseIds: string[] }> {
      const { item_ids, knowledge_base_ids } = await conversation(principal, id);
      const messages = (await itemsOf(item_ids)).map((it): ChatMessage => ({ role: it.role === 'developer' ? 'system' : it.role, content: it.content.map((c) => c.text).join('\n') }));
      return { messages, knowledgeBaseIds: knowledge_base_ids };
    },
  };
}

export type ConversationService = ReturnType<typeof createConversationService>;
