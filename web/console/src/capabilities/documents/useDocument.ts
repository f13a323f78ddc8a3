import { useEffect, useState } from 'react';
import { api } from '../../api/client.ts';
import { followEvents } from '../../api/event-stream.ts';
import type { Document } from './rows.ts';

/**
 * A document kept current by its own event stream (`…/documents/{id}/events`): it starts with the
 * document as it stands, then each step; the server ends it once the document is ready or failed,
 * so it is stopped then rather than resumed.
 */
export function useDocument(kbId: string, documentId: string) {
  const [doc, setDoc] = useState<Document | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const controller = new AbortController();
    const path = { params: { path: { kb_id: kbId, document_id: documentId } } };
    const settle = (next: Document) => {
      setDoc(next);
      if (next.status === 'ready' || next.status === 'failed') controller.abort();
    };
    followEvents(`/v1/knowledge-bases/${encodeURIComponent(kbId)}/documents/${encodeURIComponent(documentId)}/events`, {
      signal: controller.signal,
      onEvent({ event, data }) {
        if (event === 'document') settle(data as Document);
        else if (event !== 'progress')
          api.GET('/v1/knowledge-bases/{kb_id}/documents/{document_id}', { ...path, signal: controller.signal }).then(
            ({ data: next }) => settle(next!),
            (failure: unknown) => controller.signal.aborted || setError(failure),
          );
      },
    }).catch((failure: unknown) => controller.signal.aborted || setError(failure));
    return () => controller.abort();
  }, [kbId, documentId]);
  return { doc, error };
}
