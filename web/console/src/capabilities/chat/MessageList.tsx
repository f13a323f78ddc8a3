import { useServerText } from '../../i18n/server-text.ts';
import { AnswerText } from './AnswerText.tsx';
import type { ChatMessage, CitationChoice } from './chat-model.ts';
import { Feedback } from './Feedback.tsx';
import { useChatText } from './messages.ts';

type Props = {
  messages: ChatMessage[];
  conversationId: string | null;
  choice: CitationChoice | null;
  onCite(choice: CitationChoice): void;
};

/** The conversation so far; the answer being streamed grows in place (a polite live region reads it once done). */
export function MessageList({ messages, conversationId, choice, onCite }: Props) {
  const t = useChatText();
  const { notCovered } = useServerText();
  if (messages.length === 0) return <p className="chat-empty muted">{t('empty')}</p>;
  return (
    <ol className="message-list">
      {messages.map((message) => (
        <li key={message.key} className={`message message-${message.role}${message.answerable === false ? ' not-covered' : ''}`}>
          <div className="message-who">
            {message.role === 'user' ? t('you') : t('assistant')}
            {message.answerable === false && <span className="status status-failed">{t('notCovered')}</span>}
            {message.coverage !== undefined && <span className="muted">{t('coverage', { value: message.coverage.toFixed(2) })}</span>}
          </div>
          {message.role === 'user' ? (
            <p className="user-text">{message.content}</p>
          ) : (
            <div aria-busy={message.streaming ?? false}>
              {message.streaming && message.content === '' && <p className="muted">{t('answering')}</p>}
              {message.answerable === false ? (
                // The server refuses in the question's language; the console says it in its own.
                <p className="answer-text">{notCovered}</p>
              ) : (
                <AnswerText message={message} selected={choice?.messageKey === message.key ? choice.index : null} onCite={(index) => onCite({ messageKey: message.key, index })} />
              )}
              {message.answerable === false && <p className="muted hint">{t('notCoveredHint')}</p>}
              {!message.streaming && <Feedback message={message} conversationId={conversationId} />}
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}
