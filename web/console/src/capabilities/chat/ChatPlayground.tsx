import { useCallback, useState } from 'react';
import { useSession } from '../../session/session.tsx';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import type { CitationChoice } from './chat-model.ts';
import { ChatSettings } from './ChatSettings.tsx';
import { CitationPanel } from './CitationPanel.tsx';
import { Composer } from './Composer.tsx';
import { type KnownConversation, knownConversations, rememberConversation } from './conversation-list.ts';
import { ConversationSidebar } from './ConversationSidebar.tsx';
import { rememberKnowledgeBases } from './knowledge-base-choice.ts';
import { MessageList } from './MessageList.tsx';
import { useChatText } from './messages.ts';
import { type ChatSetup, useChat } from './use-chat.ts';
import './chat.css';

/**
 * The chat playground: streamed answers from /v1/chat/completions over the chosen knowledge bases,
 * kept in a server-side conversation, with each citation shown in its paragraph and on its page.
 * Every route it uses takes a read key, so a read key sees all of it.
 */
export default function ChatPlayground() {
  const t = useChatText();
  const workspace = useSession().session?.workspace_id ?? '';
  const [setup, setSetup] = useState<ChatSetup>({ model: 'kbqa-extractive', knowledgeBaseIds: [] });
  const [conversations, setConversations] = useState<KnownConversation[]>(() => knownConversations(workspace));
  const [choice, setChoice] = useState<CitationChoice | null>(null);
  const remember = useCallback((c: KnownConversation) => setConversations(rememberConversation(workspace, c)), [workspace]);
  const chat = useChat(remember);

  // The panel follows the answer a citation was chosen in, else the latest answer.
  const answers = chat.messages.filter((m) => m.role === 'assistant');
  const shown = answers.find((m) => m.key === choice?.messageKey) ?? answers.at(-1);

  return (
    <div className="chat-playground">
      <ConversationSidebar
        conversations={conversations}
        current={chat.conversationId}
        onOpen={(id) => {
          setChoice(null);
          void chat.open(id);
        }}
      />
      <section className="chat-main stack" aria-labelledby="chat-title">
        <h1 id="chat-title">{t('title')}</h1>
        <ChatSettings setup={setup} onChange={setSetup} workspace={workspace} />
        {/* Busy while an answer streams: a screen reader reads the answer once, whole, not piece by piece. */}
        <div className="chat-log" aria-live="polite" aria-busy={chat.sending}>
          <MessageList messages={chat.messages} conversationId={chat.conversationId} choice={choice} onCite={setChoice} />
        </div>
        <ErrorNote error={chat.error} />
        <Composer disabled={!setup.model} sending={chat.sending} onSend={(text) => {
            // A new answer is coming: the previous answer's citation closes, the panel follows the new one.
            setChoice(null);
            rememberKnowledgeBases(workspace, setup.knowledgeBaseIds);
            void chat.send(text, setup);
          }} onStop={chat.stop} />
      </section>
      <CitationPanel message={shown} choice={choice} onChoose={setChoice} />
    </div>
  );
}
