import type { KeywordIndex } from '../../ports/keyword-index.ts';
import type { Retriever } from './retriever.ts';

/** BM25 over each chunk's heading path and text, scored as the share of the best the query could reach. */
export function keywordRetriever(keywords: KeywordIndex): Retriever {
  return {
    recall: 'keyword',
    // A pinned language analyses the query like the chunks; 'auto' lets the index detect it.
    retrieve: ({ text, kb, depth, filter }) => keywords.query(kb.id, text, depth, filter, { language: kb.settings.language }),
  };
}
