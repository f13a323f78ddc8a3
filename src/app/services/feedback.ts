import type { FeedbackRating } from '../../../schemas/events/chat.ts';
import { chatDecider, type ChatState } from '../../domain/chat/chat.ts';
import { handleCommand, foldStream } from '../command-handler.ts';
import { type AppContext, commandMetadata } from '../context.ts';
import { badRequest, resourceNotFound } from '../errors.ts';
import type { ConversationService } from './conversations.ts';
import type { Principal } from './principal.ts';
import { requireProvenanceAccess } from './provenance.ts';

export type FeedbackInput = { rating: FeedbackRating; comment?: string | null };

/**
 * Feedback on answers, recorded as ChatFeedbackGiven on the chat's own stream: a chat is found by
 * its id there (chats have no read model), and the key must be allowed every knowledge base of its provenance (provenance.ts).
 */
export function createFeedbackService(ctx: AppContext, conversations: ConversationService) {
  async function onChat(principal: Principal, chatId: string, input: FeedbackInput, onItem?: { conversationId: string; itemId: string }) {
    const streamId = chatDecider.streamId(chatId);
    const recorded = await ctx.store.readStream(streamId);
    const state: ChatState = foldStream(chatDecider, streamId, recorded);
    if (!state.recorded || state.workspaceId !== principal.workspaceId) throw resourceNotFound('chat_completion', chatId);
    requireProvenanceAccess(principal, state.knowledgeBaseIds);
    const feedbackId = ctx.newId('fb');
    const metadata = commandMetadata(ctx, principal.keyId);
    const data = {
      feedback_id: feedbackId,
      chat_id: chatId,
      workspace_id: principal.workspaceId,
      api_key_id: principal.keyId,
      rating: input.rating,
      comment: input.comment ?? null,
      ...(onItem && { conversation_id: onItem.conversationId, item_id: onItem.itemId }),
    };
    const known = { state, revision: recorded.at(-1)?.revision ?? -1 };
    await handleCommand(ctx.store, chatDecider, chatId, { type: 'GiveFeedback', data: { ...data, allowed: principal.knowledgeBaseIds }, metadata }, { known });
    return {
      id: feedbackId,
      object: 'chat.completion.feedback' as const,
      chat_completion_id: chatId,
      rating: input.rating,
      comment: data.comment,
      ...(onItem && { conversation_id: onItem.conversationId, item_id: onItem.itemId }),
      created_at: Math.floor(Date.parse(metadata.now) / 1000),
    };
  }

  return {
    onChat: (principal: Principal, chatId: string, input: FeedbackInput) => onChat(principal, chatId, input),

    /** On an item a chat added (its question or its answer): feedback on that chat, naming the item. */
    async onItem(principal: Principal, conversationId: string, itemId: string, input: FeedbackInput) {
      const item = await conversations.item(principal, conversationId, itemId);
      if (item.chat_id === null) throw badRequest('item_not_from_chat', `Item '${itemId}' was added by a client, not by a chat: feedback rates a chat's question or answer.`, 'item_id');
      return onChat(principal, item.chat_id, input, { conversationId, itemId });
    },
  };
}

export type FeedbackService = ReturnType<typeof createFeedbackService>;
