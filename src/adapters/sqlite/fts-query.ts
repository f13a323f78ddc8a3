const STOP_WORDS = new Set(
  'a an and are as at be but by for from has have in into is it its of on or that the their there these this those to was were which with will not no can may than then'.split(' '),
);

/**
 * A user's text as an FTS5 expression: every distinct content word quoted (so no operator or
 * column syntax can be injected) and OR-ed, letting BM25 rank partial matches.
 */
export function toMatchExpression(text: string): string | null {
  const words = [...new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP_WORDS.has(w)))];
  if (words.length === 0) return null;
  return words.map((w) => `"${w}"`).join(' OR ');
}
