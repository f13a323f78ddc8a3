import type { Citation, WireCitation } from './types.ts';

/** SPEC.md's SDK citation: the API's `paragraph` is the SDK's `text`. */
export function toCitation(c: WireCitation): Citation {
  const citation: Citation = {
    index: c.index,
    source: c.source,
    page: c.page,
    text: c.paragraph,
    document_id: c.document_id,
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
