import { useState } from 'react';
import { ToggleButton } from 'react-aria-components';
import { api } from '../../api/client.ts';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import type { ChatMessage } from './chat-model.ts';
import { useChatText } from './messages.ts';

type Rating = 'up' | 'down';

/**
 * Thumbs up or down on an answer (a read-scope route): by its completion id when it was answered
 * here, else through the conversation item it became.
 */
export function Feedback({ message, conversationId }: { message: ChatMessage; conversationId: string | null }) {
  const t = useChatText();
  const [rating, setRating] = useState<Rating | null>(null);
  const [error, setError] = useState<unknown>(null);
  if (!message.completionId && !(message.itemId && conversationId)) return null;

  async function rate(value: Rating) {
    setError(null);
    try {
      const body = { rating: value };
      if (message.completionId) await api.POST('/v1/chat/completions/{completion_id}/feedback', { params: { path: { completion_id: message.completionId } }, body });
      else await api.POST('/v1/conversations/{conversation_id}/items/{item_id}/feedback', { params: { path: { conversation_id: conversationId!, item_id: message.itemId! } }, body });
      setRating(value);
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <div className="feedback row" role="group" aria-label={t('feedback')}>
      <ToggleButton className="react-aria-Button quiet" aria-label={t('good')} isSelected={rating === 'up'} onChange={() => void rate('up')}>
        <Thumb />
      </ToggleButton>
      <ToggleButton className="react-aria-Button quiet" aria-label={t('bad')} isSelected={rating === 'down'} onChange={() => void rate('down')}>
        <Thumb down />
      </ToggleButton>
      {rating && (
        <span className="muted" role="status">
          {t('thanks')}
        </span>
      )}
      <ErrorNote error={error} />
    </div>
  );
}

/** A thumb drawn here: the console ships no icon font, and emoji are missing from many systems' fonts. */
function Thumb({ down = false }: { down?: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" className={down ? 'thumb thumb-down' : 'thumb'}>
      <path fill="currentColor" d="M2 10h4v11H2zM8 21h9.3a2 2 0 0 0 2-1.6l1.6-7A2 2 0 0 0 19 10h-5.4l.8-3.9a2 2 0 0 0-.5-1.8L12.6 3 8 8.3z" />
    </svg>
  );
}
