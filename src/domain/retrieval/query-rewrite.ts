/** A word of the query with its offsets, as an analyzer marks it. */
export type QueryWord = { start: number; end: number; stop: boolean };

/**
 * OpenAI's `rewrite_query` without a model: the query's words as written, its stop words
 * (question words, articles…) left out, so keyword recall and the coverage gate weigh only what
 * the question is about. A query of stop words only stays as it was.
 */
export function rewriteQuery(query: string, tokens: readonly QueryWord[]): string {
  const kept = tokens.filter((t) => !t.stop).map((t) => query.slice(t.start, t.end));
  return kept.length > 0 ? kept.join(' ') : query;
}
