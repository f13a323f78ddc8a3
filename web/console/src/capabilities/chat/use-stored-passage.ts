import { useEffect, useState } from 'react';
import { api } from '../../api/client.ts';
import type { ShownCitation } from './chat-model.ts';

type Passage = { paragraph: string; boxes: NonNullable<ShownCitation['boxes']> };

/**
 * A stored answer's citation names its chunk but keeps neither the passage nor its lines (a
 * conversation item's file_citation), so they are read from the document's chunk list, page by
 * page until the chunk is found. A live citation has them already: nothing is fetched.
 */
export function useStoredPassage(citation: ShownCitation): Passage | null {
  const [passage, setPassage] = useState<Passage | null>(null);
  const needed = citation.paragraph === undefined && citation.chunk_id !== undefined && citation.knowledge_base_id !== '';
  useEffect(() => {
    setPassage(null);
    if (!needed) return;
    let cancelled = false;
    void (async () => {
      let after: number | undefined;
      for (;;) {
        const { data } = await api.GET('/v1/knowledge-bases/{kb_id}/documents/{document_id}/chunks', {
          params: { path: { kb_id: citation.knowledge_base_id, document_id: citation.document_id }, query: { limit: 100, ...(after !== undefined && { after }) } },
        });
        const found = data!.data.find((chunk) => chunk.id === citation.chunk_id);
        if (found || !data!.has_more || data!.data.length === 0 || cancelled) {
          if (found && !cancelled) setPassage({ paragraph: found.paragraph, boxes: found.boxes });
          return;
        }
        after = data!.data.at(-1)!.index;
      }
    })().catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [needed, citation.knowledge_base_id, citation.document_id, citation.chunk_id]);
  return passage;
}
