import { useCallback, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { api } from '../../api/client.ts';
import { type ChatMessage, messageKey } from './chat-model.ts';
import { conversationMessages } from './conversation-items.ts';
import { streamChat } from './chat-stream.ts';

/** `asOf`: a local date-time ("2026-05-01T09:30", the input's value) to answer from the documents as they were then; empty for now. */
export type ChatSetup = { model: string; knowledgeBaseIds: string[]; asOf?: string };

/**
 * One conversation's messages and the sending of the next: a conversation is created on the first
 * message (POST /v1/conversations) and each question goes to /v1/chat/completions with it, so the
 * server keeps the history and reads follow-ups with it.
 */
export function useChat(onCreated: (conversation: { id: string; title: string; created_at: number }) => void) {
  const [conversationId, setConversationId] = useState<string | null>(null);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [sending, setSending] = useState(false);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const patch = (key: string, change: (m: ChatMessage) => Partial<ChatMessage>) => setMessages((all) => all.map((m) => (m.key === key ? { ...m, ...change(m) } : m)));

  const send = useCallback(
    async (text: string, setup: ChatSetup) => {
      setError(null);
      setSending(true);
      const controller = (abort.current = new AbortController());
      const answerKey = messageKey();
      try {
        let id = conversationId;
        if (!id) {
          const title = text.slice(0, 80);
          const { data } = await api.POST('/v1/conversations', { body: { metadata: { title } } });
          id = data!.id;
          setConversationId(id);
          onCreated({ id, title, created_at: data!.created_at });
        }
        setMessages((all) => [...all, { key: messageKey(), role: 'user', content: text, citations: [] }, { key: answerKey, role: 'assistant', content: '', citations: [], streaming: true }]);
        const kbs = setup.knowledgeBaseIds;
        await streamChat(
          { model: setup.model, conversation: id, messages: [{ role: 'user', content: text }], ...(kbs.length === 1 ? { knowledge_base_id: kbs[0] } : kbs.length > 1 ? { knowledge_base_ids: kbs } : {}), ...(setup.asOf && kbs.length > 0 && { as_of: new Date(setup.asOf).toISOString() }) },
          {
            // While the answer streams, its markers point at the context's passages; the finishing chunk's citations (with quotes) replace them.
            onMeta: (meta) => patch(answerKey, (m) => ({ completionId: meta.id, citations: meta.citations ?? meta.context ?? m.citations, answerable: meta.answerable ?? m.answerable, coverage: meta.coverage ?? m.coverage })),
            // Rendered now, not at the scheduler's next turn: a piece is on screen before the next is read.
            onText: (piece) => flushSync(() => patch(answerKey, (m) => ({ content: m.content + piece }))),
            onFinish: () => undefined,
          },
          controller.signal,
        );
      } catch (failure) {
        if (!controller.signal.aborted) setError(failure);
        // A stopped or failed answer was not recorded, so it cannot be rated; an empty one is not shown.
        setMessages((all) => all.filter((m) => m.key !== answerKey || m.content !== '').map((m) => (m.key === answerKey ? { ...m, completionId: undefined } : m)));
      } finally {
        patch(answerKey, () => ({ streaming: false }));
        setSending(false);
      }
    },
    [conversationId, onCreated],
  );

  const open = useCallback(async (id: string | null) => {
    abort.current?.abort();
    setError(null);
    setConversationId(id);
    setMessages([]);
    if (!id) return;
    try {
      setMessages(await conversationMessages(id));
    } catch (failure) {
      setError(failure);
    }
  }, []);

  // Closing the stream makes the server cancel the generation (and not record the half answer).
  const stop = useCallback(() => abort.current?.abort(), []);

  return { conversationId, messages, error, sending, send, open, stop };
}
