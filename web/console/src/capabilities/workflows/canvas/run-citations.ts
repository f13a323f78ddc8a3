/**
 * What the run panel lists of a run's `citations` output: one entry per document and page (a
 * retrieval gives a citation per passage, so five passages of one file were that file five
 * times), each with its page and, when the citation names them, a link to the document's page in
 * the console at the passage. The outputs are open records (an end node may hand on anything), so
 * only what each citation carries is used, and anything else is left out.
 */
export type RunCitation = { key: string; source: string; page: number | null; passages: number; quote: string | null; href: string | null };

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

export function runCitations(cited: unknown): RunCitation[] {
  if (!Array.isArray(cited)) return [];
  const byPlace = new Map<string, RunCitation>();
  for (const item of cited as unknown[]) {
    if (!item || typeof item !== 'object') continue;
    const field = (name: string): unknown => Reflect.get(item, name);
    const documentId = text(field('document_id'));
    const kbId = text(field('knowledge_base_id'));
    const source = text(field('document_name')) ?? text(field('source')) ?? documentId;
    if (!source) continue;
    const page = typeof field('page') === 'number' ? (field('page') as number) : null;
    const key = [kbId, documentId ?? source, page].join('\u0000');
    const seen = byPlace.get(key);
    if (seen) {
      seen.passages += 1;
      continue;
    }
    const quoted = field('quote');
    const quote = text(quoted) ?? (quoted && typeof quoted === 'object' ? text(Reflect.get(quoted, 'text')) : null);
    byPlace.set(key, { key, source, page, passages: 1, quote, href: kbId && documentId ? documentHref(kbId, documentId, text(field('chunk_id')), page) : null });
  }
  return [...byPlace.values()];
}

/** The documents screen at the passage: the chunk selected (ChunksPanel reads `chunk`), its page said. */
function documentHref(kbId: string, documentId: string, chunkId: string | null, page: number | null): string {
  const query = new URLSearchParams();
  if (chunkId) query.set('chunk', chunkId);
  if (page !== null) query.set('page', String(page));
  const search = query.size > 0 ? `?${query}` : '';
  return `/knowledge-bases/${encodeURIComponent(kbId)}/documents/${encodeURIComponent(documentId)}${search}`;
}
