import { type ChatDeps, createChatService } from '../app/services/chat.ts';
import { chatWithConversations } from '../app/services/chat-conversation.ts';
import { createConversationService } from '../app/services/conversations.ts';
import { createFeedbackService } from '../app/services/feedback.ts';

/** Chat, the conversations it may continue, and feedback on its answers (on a chat, or on a conversation's item). */
export function createChatServices(deps: ChatDeps) {
  const conversations = createConversationService(deps.ctx);
  return { chat: chatWithConversations(createChatService(deps), conversations), conversations, feedback: createFeedbackService(deps.ctx, conversations) };
}
