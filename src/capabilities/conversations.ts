/** Conversations: OpenAI's Conversations API, chat that continues one, and feedback on answers (see documents.ts for why an index). */
export { conversationEvents } from '../../schemas/events/conversation.ts';
export { ChatFeedbackGiven } from '../../schemas/events/chat.ts';
export { Conversation, ConversationItem, CreateConversationBody, FeedbackBody } from '../../schemas/http/conversations.ts';
export { conversationDecider } from '../domain/conversation/conversation.ts';
export { batchItems } from '../domain/conversation/batches.ts';
export { conversationsProjection, conversationItemsProjection } from '../../projections/conversations/index.ts';
export { createConversationService } from '../app/services/conversations.ts';
export { chatWithConversations } from '../app/services/chat-conversation.ts';
export { createFeedbackService } from '../app/services/feedback.ts';
export { createChatServices } from '../composition/conversations.ts';
export { conversationRoutes } from '../http/routes/conversations.ts';
