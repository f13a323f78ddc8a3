import type { z } from 'zod';
import type { ConversationService, NewItem } from '../../app/services/conversations.ts';
import type { FeedbackService } from '../../app/services/feedback.ts';
import { Deleted, listOf } from '../../../schemas/http/common.ts';
import {
  AddItemsBody,
  Conversation,
  ConversationItem,
  type ConversationItemInput,
  CreateConversationBody,
  Feedback,
  FeedbackBody,
  ItemQuery,
  ItemsQuery,
  UpdateConversationBody,
} from '../../../schemas/http/conversations.ts';
import { route } from '../route.ts';

const tag = 'conversations';
const base = '/v1/conversations/:conversation_id';
const toNewItem = ({ role, content }: z.infer<typeof ConversationItemInput>): NewItem => ({ role, content });

/**
 * OpenAI's Conversations API. Conversations belong to the workspace; any key of it with the read
 * scope (the scope chat needs, and chat adds to them) may use one, once it may use every knowledge
 * base the conversation's chats searched.
 */
export function conversationRoutes(conversations: ConversationService, feedback: FeedbackService) {
  return [
    route({
      method: 'post',
      path: '/v1/conversations',
      summary: 'Create a conversation, with up to 20 first items',
      tag,
      scope: 'read',
      body: CreateConversationBody,
      response: Conversation,
      handle: async ({ principal, body, requestId }) => ({
        body: await conversations.create(principal, { items: body.items?.map(toNewItem), metadata: body.metadata }, requestId),
      }),
    }),
    route({
      method: 'get',
      path: base,
      summary: 'Get a conversation',
      tag,
      scope: 'read',
      response: Conversation,
      handle: async ({ principal, params }) => ({ body: await conversations.get(principal, params.conversation_id) }),
    }),
    route({
      method: 'post',
      path: base,
      summary: 'Replace a conversation’s metadata',
      tag,
      scope: 'read',
      body: UpdateConversationBody,
      response: Conversation,
      handle: async ({ principal, params, body, requestId }) => ({ body: await conversations.update(principal, params.conversation_id, body.metadata, requestId) }),
    }),
    route({
      method: 'delete',
      path: base,
      summary: 'Delete a conversation and its items',
      tag,
      scope: 'read',
      response: Deleted('conversation.deleted'),
      handle: async ({ principal, params, requestId }) => ({ body: await conversations.remove(principal, params.conversation_id, requestId) }),
    }),
    route({
      method: 'get',
      path: `${base}/items`,
      summary: 'List a conversation’s items (newest first unless order=asc)',
      tag,
      scope: 'read',
      query: ItemsQuery,
      response: listOf(ConversationItem),
      handle: async ({ principal, params, query }) => ({ body: await conversations.listItems(principal, params.conversation_id, query) }),
    }),
    route({
      method: 'post',
      path: `${base}/items`,
      summary: 'Add up to 20 items to a conversation',
      operationId: 'createConversationItems',
      tag,
      scope: 'read',
      body: AddItemsBody,
      query: ItemQuery,
      response: listOf(ConversationItem),
      handle: async ({ principal, params, body }) => ({ body: await conversations.addItems(principal, params.conversation_id, body.items.map(toNewItem)) }),
    }),
    route({
      method: 'get',
      path: `${base}/items/:item_id`,
      summary: 'Get one item of a conversation',
      operationId: 'getConversationItem',
      tag,
      scope: 'read',
      query: ItemQuery,
      response: ConversationItem,
      handle: async ({ principal, params }) => ({ body: await conversations.getItem(principal, params.conversation_id, params.item_id) }),
    }),
    route({
      method: 'delete',
      path: `${base}/items/:item_id`,
      summary: 'Delete one item of a conversation; answers with the conversation',
      operationId: 'deleteConversationItem',
      tag,
      scope: 'read',
      response: Conversation,
      handle: async ({ principal, params }) => ({ body: await conversations.deleteItem(principal, params.conversation_id, params.item_id) }),
    }),
    route({
      method: 'post',
      path: `${base}/items/:item_id/feedback`,
      summary: 'Rate the chat that added an item (its question or its answer): up or down, with a comment',
      operationId: 'createConversationItemFeedback',
      tag,
      scope: 'read',
      body: FeedbackBody,
      response: Feedback,
      status: 201,
      handle: async ({ principal, params, body }) => ({ status: 201, body: await feedback.onItem(principal, params.conversation_id, params.item_id, body) }),
    }),
    route({
      method: 'post',
      path: '/v1/chat/completions/:completion_id/feedback',
      summary: 'Rate a chat completion’s answer: up or down, with a comment',
      operationId: 'createChatCompletionFeedback',
      tag: 'chat',
      scope: 'read',
      body: FeedbackBody,
      response: Feedback,
      status: 201,
      handle: async ({ principal, params, body }) => ({ status: 201, body: await feedback.onChat(principal, params.completion_id, body) }),
    }),
  ];
}
