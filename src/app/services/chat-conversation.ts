import { MAX_CHAT_MESSAGES } from '../../../schemas/http/chat.ts';
import type { ChatMessage } from '../../ports/models.ts';
import type { Citation } from '../retrieval/retrieved-context.ts';
import type { ChatInput, ChatService, PreparedChat } from './chat.ts';
import type { ConversationService, NewItem } from './conversations.ts';
import type { Principal } from './principal.ts';
import { provenanceOf } from './provenance.ts';

/**
 * Chat over a server-side conversation: its items go before the request's messages (the client
 * sends only the new one, and a follow-up still reads with its history), and once the answer is
 * recorded, the request's messages and the answer, with its citations, are appended to it.
 */
export function chatWithConversations(chat: ChatService, conversations: ConversationService): ChatService {
  return {
    async prepare(principal: Principal, input: ChatInput, signal: AbortSignal): Promise<PreparedChat> {
      const { conversationId } = input;
      if (conversationId === undefined) return chat.prepare(principal, input, signal);
      const history = await conversations.history(principal, conversationId);
      // As many messages as a request may carry: a long conversation keeps its latest turns.
      const kept = history.messages.slice(Math.max(0, history.messages.length - (MAX_CHAT_MESSAGES - input.messages.length)));
      // The history's text is the conversation's: the chat, and so this conversation's new items, are built from all of it.
      const derivedFrom = provenanceOf(input.derivedFrom, history.knowledgeBaseIds);
      const prepared = await chat.prepare(principal, { ...input, messages: [...kept, ...input.messages], derivedFrom }, signal);
      return {
        ...prepared,
        async record(outcome) {
          await prepared.record(outcome);
          const answer: NewItem = { role: 'assistant', content: outcome.content, annotations: annotationsOf(prepared.cite(outcome.content), outcome.content) };
          const items = [...input.messages.flatMap(itemOf), answer];
          await conversations.append(principal, conversationId, items, { chatId: prepared.id, knowledgeBaseIds: prepared.provenance });
        },
      };
    },
  };
}

/** Tool results stay with the chat that asked for them: a conversation keeps what people and the assistant said. */
function itemOf(message: ChatMessage): NewItem[] {
  return message.role === 'tool' ? [] : [{ role: message.role, content: message.content }];
}

/** The citations the answer names ([1], [2] …), as OpenAI's file citations of the cited documents. */
function annotationsOf(citations: readonly Citation[], answer: string): NonNullable<NewItem['annotations']> {
  return citations
    .filter((c) => answer.includes(`[${c.index}]`))
    .map((c) => ({ type: 'file_citation', file_id: c.document_id, filename: c.source, index: c.index, knowledge_base_id: c.knowledge_base_id, document_version: c.document_version, chunk_id: c.chunk_id, page: c.page }));
}
