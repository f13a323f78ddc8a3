import { createParser } from 'eventsource-parser';
import { consoleFetch } from '../../api/client.ts';

/** A lifecycle event of one document, as the knowledge base's stream sends it. */
export type HistoryEvent = { id: string; type: string; data: Record<string, unknown> };

/**
 * A document's whole history: its knowledge base's ingestion stream replayed from the start
 * (`Last-Event-ID: 0`, docs/console-session.md), kept to this document, then followed live. The
 * document's own stream cannot give it: it starts from the document as it stands and skips what
 * that already reflects. followEvents starts at the head, so the replay is read here.
 */
export async function followDocumentHistory(kbId: string, documentId: string, onEvent: (event: HistoryEvent) => void, signal: AbortSignal): Promise<void> {
  const response = await consoleFetch(`/v1/knowledge-bases/${encodeURIComponent(kbId)}/documents/events`, { signal, headers: { accept: 'text/event-stream', 'last-event-id': '0' } });
  const parser = createParser({
    onEvent(message) {
      if (!message.id || !message.event || message.event === 'ready' || message.event === 'progress') return;
      let data: unknown;
      try {
        data = JSON.parse(message.data);
      } catch {
        return;
      }
      if (data && typeof data === 'object' && (data as { document_id?: unknown }).document_id === documentId) onEvent({ id: message.id, type: message.event, data: data as Record<string, unknown> });
    },
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      parser.feed(value);
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }
}
