import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Button, Form, Input, TextField } from 'react-aria-components';
import { flushSync } from 'react-dom';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { type Citation, streamChat } from '../chat/chat-stream.ts';
import { useAgentText } from './messages.ts';

type Turn = { role: 'user' | 'assistant'; content: string; citations: Citation[] };

/**
 * A small chat with the agent's saved draft: /v1/chat/completions with the agent as the model and
 * `agent_version: "draft"` (docs/agents.md), so it answers with the draft's instructions, model and
 * knowledge bases before anything is published. The history is sent with each question.
 */
export function AgentPreview({ agentId, openingMessage }: { agentId: string; openingMessage: string | null }) {
  const t = useAgentText();
  const [turns, setTurns] = useState<Turn[]>([]);
  const [question, setQuestion] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const patchLast = (change: (turn: Turn) => Partial<Turn>) => setTurns((all) => all.map((turn, i) => (i === all.length - 1 ? { ...turn, ...change(turn) } : turn)));

  async function send(event: FormEvent) {
    event.preventDefault();
    const text = question.trim();
    if (!text || sending) return;
    const history = [...turns.map(({ role, content }) => ({ role, content })), { role: 'user' as const, content: text }];
    setTurns((all) => [...all, { role: 'user', content: text, citations: [] }, { role: 'assistant', content: '', citations: [] }]);
    setQuestion('');
    setError(null);
    setSending(true);
    const controller = (abort.current = new AbortController());
    try {
      await streamChat(
        { model: agentId, agent_version: 'draft', messages: history },
        {
          // The finishing chunk's citations are what the answer cites (docs/api/chat.md); the first chunk's context is not shown here.
          onMeta: (meta) => meta.citations && patchLast(() => ({ citations: meta.citations! })),
          onText: (piece) => flushSync(() => patchLast((turn) => ({ content: turn.content + piece }))),
          onFinish: () => undefined,
        },
        controller.signal,
      );
    } catch (failure) {
      if (!controller.signal.aborted) setError(failure);
      setTurns((all) => all.filter((turn, i) => i !== all.length - 1 || turn.content !== ''));
    } finally {
      setSending(false);
    }
  }

  return (
    <section className="card stack agent-preview" aria-labelledby="agent-preview-title">
      <h2 id="agent-preview-title">{t('preview')}</h2>
      <p className="muted">{t('previewHint')}</p>
      <div className="preview-log" role="log" aria-live="polite" aria-label={t('preview')}>
        {openingMessage && <p className="turn turn-assistant">{openingMessage}</p>}
        {turns.length === 0 && !openingMessage && <p className="muted">{t('previewEmpty')}</p>}
        {turns.map((turn, i) => (
          <div key={i} className={`turn turn-${turn.role}`}>
            <span className="turn-who">{turn.role === 'user' ? t('you') : t('agent')}</span>
            <p>{turn.content || '…'}</p>
            {turn.citations.length > 0 && (
              <ol className="turn-sources">
                {turn.citations.map((c) => (
                  <li key={c.index} value={c.index}>
                    {t('sourcePage', { source: c.source, page: c.page })}
                  </li>
                ))}
              </ol>
            )}
          </div>
        ))}
      </div>
      <ErrorNote error={error} />
      <Form onSubmit={send} className="preview-composer">
        <TextField value={question} onChange={setQuestion} aria-label={t('question')} className="react-aria-TextField grow">
          <Input placeholder={t('question')} />
        </TextField>
        {sending ? (
          <Button onPress={() => abort.current?.abort()}>{t('stop')}</Button>
        ) : (
          <Button type="submit" className="react-aria-Button primary" isDisabled={!question.trim()}>
            {t('send')}
          </Button>
        )}
      </Form>
    </section>
  );
}

