/**
 * One analysed word. `term` is what indexes and queries compare (normalised, case- and
 * accent-folded where the language allows, stemmed); `word` the surface form as folded, before
 * stemming; `start`/`end` are UTF-16 offsets into the ORIGINAL text, so `text.slice(start, end)`
 * is the word as written, whatever normalisation changed.
 */
export type Token = { term: string; word: string; start: number; end: number; stop: boolean };

/**
 * The text analysis every component shares (keyword index, reranker, embedder, answerer), so a
 * query's words and an index's terms always meet. `language` is an ISO 639-1 code; absent or
 * 'auto', the analyzer picks one (see each adapter for how); 'und' means no language: folded but
 * neither stemmed nor stop-filtered.
 */
export interface Analyzer {
  /** Bumped whenever terms for the same text could change: stored terms from another version are stale. */
  readonly version: string;
  /** Codes `language` accepts, beyond 'auto' and 'und'. */
  readonly languages: readonly string[];
  /** ISO 639-1 code of the text's main language, or 'und' when it cannot tell. */
  detectLanguage(text: string): string;
  /** Index terms in order, repeats kept, stop words dropped: the indexing hot path. */
  terms(text: string, language?: string): string[];
  /** Every word with its offsets, stop words marked rather than dropped. */
  tokens(text: string, language?: string): Token[];
}
