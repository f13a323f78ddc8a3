import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { KnownConversation } from './conversation-list.ts';
import { useChatText } from './messages.ts';

type Props = { conversations: KnownConversation[]; current: string | null; onOpen(id: string | null): void };

/** New conversation, and the ones this browser started (the API lists none: conversation-list.ts). */
export function ConversationSidebar({ conversations, current, onOpen }: Props) {
  const t = useChatText();
  const { i18n } = useTranslation();
  return (
    <nav className="conversation-sidebar stack" aria-labelledby="conversations-title">
      <div className="spread">
        <h2 id="conversations-title">{t('conversations')}</h2>
      </div>
      <Button className="react-aria-Button" onPress={() => onOpen(null)}>
        {t('newConversation')}
      </Button>
      <p className="muted hint">{t('conversationsHint')}</p>
      {conversations.length === 0 ? (
        <p className="muted">{t('noConversations')}</p>
      ) : (
        <ul className="conversation-list">
          {conversations.map((c) => (
            <li key={c.id}>
              <Button className={`conversation-entry${c.id === current ? ' current' : ''}`} aria-current={c.id === current ? 'page' : undefined} onPress={() => onOpen(c.id)}>
                <span className="conversation-title">{c.title || t('untitled')}</span>
                <span className="muted">{new Date(c.created_at * 1000).toLocaleString(i18n.language)}</span>
              </Button>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
