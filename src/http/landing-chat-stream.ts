import type { ChatOutcome, PreparedChat } from '../app/services/chat.ts';
import type { PublicCitation } from '../app/services/landing-page.ts';
import type { Citation } from '../app/retrieval/retrieved-context.ts';
import type { EventStream } from './sse.ts';

/**
 * The landing page's chunk stream: chat.completion.chunk as /v1/chat/completions sends it, with the
 * public citations only (no knowledge-base id, grounding, usage or retrieval context): the chunk
 * with the finish reason carries the passages the answer cites, with their quotes; every chunk's
 * `id` is the answer's message id, which feedback names. The page shows a visitor the sources of
 * the answer, not what else was retrieved.
 */
export function streamLandingChat(chat: PreparedChat, stream: EventStream, present: (citations: Citation[]) => PublicCitation[], onDone: (outcome: ChatOutcome) => void) {
  const base = { id: chat.id, object: 'chat.completion.chunk', created: chat.created, model: chat.model };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null) => ({ ...base, choices: [{ index: 0, delta, finish_reason: finishReason }] });
  void (async () => {
    let content = '';
    try {
      stream.send(chunk({ role: 'assistant', content: '' }, null));
      for await (const delta of chat.generate(stream.signal)) {
        if ('content' in delta) {
          if (delta.content === '') continue;
          content += delta.content;
          stream.send(chunk({ content: delta.content }, null));
          continue;
        }
        // A provider's tool calls have no place on a public page: the agent's model answers in text.
        if ('toolCalls' in delta) continue;
        stream.send({ ...chunk({}, delta.finishReason), citations: present(chat.cite(content)) });
        stream.sendRaw('[DONE]');
        onDone({ content, finishReason: delta.finishReason, usage: delta.usage, firstTokenMs: null });
      }
      stream.end();
    } catch (error) {
      stream.fail(error);
    }
  })();
}
