import { type Answer, api } from '../../api/client.ts';
import { type ChatMessage, messageKey } from './chat-model.ts';

type Item = Answer<'/v1/conversations/{conversation_id}/items', 'get'>['data'][number];

/** A stored conversation's messages, oldest first (user and assistant turns; system items are the prompt's). */
export async function conversationMessages(conversationId: string): Promise<ChatMessage[]> {
  const items: Item[] = [];
  let after: string | undefined;
  for (;;) {
    const { data } = await api.GET('/v1/conversations/{conversation_id}/items', { params: { path: { conversation_id: conversationId }, query: { order: 'asc', limit: 100, ...(after && { after }) } } });
    items.push(...data!.data);
    if (!data!.has_more || !data!.last_id) break;
    after = data!.last_id;
  }
  return items.filter((item) => item.role === 'user' || item.role === 'assistant').map(toMessage);
}

function toMessage(item: Item): ChatMessage {
  const content = item.content.map((part) => part.text).join('');
  const annotations = item.content.flatMap((part) => part.annotations ?? []);
  const citations = new Map<number, ChatMessage['citations'][number]>();
  for (const a of annotations) {
    const index = markerAt(content, a.index);
    if (!citations.has(index)) {
      citations.set(index, { index, source: a.filename, page: a.page ?? 1, document_id: a.file_id, knowledge_base_id: a.knowledge_base_id ?? '', chunk_id: a.chunk_id, ...versionOf(a) });
    }
  }
  return { key: messageKey(), role: item.role as 'user' | 'assistant', content, citations: [...citations.values()], itemId: item.id };
}

/**
 * The marker number an annotation stands for. A chat's items index by the marker ([n]); a stored
 * response's, as OpenAI's do, by the marker's offset in the text: read the number found there.
 */
function markerAt(text: string, index: number): number {
  const marker = /^\[(\d+)\]/.exec(text.slice(index));
  return marker ? Number(marker[1]) : index;
}

/** The annotation's `document_version` (the generated types predate it; answers recorded before versions have none). */
function versionOf(annotation: object): { document_version?: number } {
  const version = (annotation as { document_version?: unknown }).document_version;
  return typeof version === 'number' ? { document_version: version } : {};
}
