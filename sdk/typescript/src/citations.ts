import type { Citation, ContextPassage, SearchFilter, WireCitation } from './types.ts';

/** SPEC.md's SDK citation: the API's `paragraph` is the SDK's `text`. */
export function toCitation(c: WireCitation): Citation {
  const citation: Citation = {
    index: c.index,
    source: c.source,
    page: c.page,
    text: c.paragraph,
    document_id: c.document_id,
    ...(c.knowledge_base_id !== undefined && { knowledge_base_id: c.knowledge_base_id }),
    chunk_id: c.chunk_id,
    score: c.score,
    // Servers from before the citation contract send none of these.
    heading_path: c.heading_path ?? [],
    char_start: c.char_start ?? 0,
    char_end: c.char_end ?? c.paragraph.length,
    boxes: c.boxes ?? [],
  };
  return c.quote === undefined ? citation : { ...citation, quote: c.quote };
}

/** A passage of the retrieval context, as a citation without a quote; servers before the context field send none. */
export const toContext = (passages: readonly WireCitation[] | undefined): ContextPassage[] => (passages ?? []).map(({ quote: _quote, ...c }) => toCitation(c));

/** A filter as the API takes it: the grammar as is, the older form with its snake_case field. */
export function filterBody(filter: SearchFilter): unknown {
  if ('type' in filter) return filter;
  return { ...(filter.documentIds && { document_ids: filter.documentIds }), ...(filter.metadata && { metadata: filter.metadata }) };
}
