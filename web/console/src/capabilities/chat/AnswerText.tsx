import { Button } from 'react-aria-components';
import type { ChatMessage } from './chat-model.ts';
import { useChatText } from './messages.ts';

type Props = { message: ChatMessage; selected: number | null; onCite(index: number): void };

/** The answer's text with each [n] it writes as a button that shows citation n. */
export function AnswerText({ message, selected, onCite }: Props) {
  const t = useChatText();
  const known = new Set(message.citations.map((c) => c.index));
  const parts = message.content.split(/\[(\d+)\]/g);
  return (
    <p className="answer-text">
      {parts.map((part, i) => {
        if (i % 2 === 0) return part;
        const n = Number(part);
        if (!known.has(n)) return `[${part}]`;
        return (
          <Button key={i} className={`citation-marker${selected === n ? ' selected' : ''}`} aria-label={t('citation', { n })} onPress={() => onCite(n)}>
            {n}
          </Button>
        );
      })}
      {message.streaming && <span className="caret" aria-hidden="true" />}
    </p>
  );
}
