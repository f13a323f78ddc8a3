import { conversationEvents } from '../../schemas/events/conversation.ts';
import { conversationItemsProjection, conversationsProjection } from '../../projections/conversations/index.ts';
import { conversationDecider } from '../domain/conversation/conversation.ts';
import { conversationRoutes } from '../http/routes/conversations.ts';
import { defineCapability } from './capability.ts';

/** Feedback on answers is recorded on the chat's stream (chat.ts's events); its routes are here. */
export const conversations = defineCapability({
  name: 'conversations',
  summary: "OpenAI's Conversations API, chat that continues one, and feedback on answers.",
  events: conversationEvents,
  deciders: [conversationDecider],
  projections: [conversationsProjection, conversationItemsProjection],
  routes: ({ services }) => conversationRoutes(services.conversations, services.feedback),
});
