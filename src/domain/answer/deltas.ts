/**
 * Content cut into stream deltas of a few words each, every delta carrying the whitespace that
 * follows its words, so that the deltas joined are exactly the content.
 */
export function splitIntoDeltas(content: string, wordsPerDelta = 3): string[] {
  const pieces = content.match(/\s*\S+\s*/g) ?? [];
  const deltas: string[] = [];
  for (let i = 0; i < pieces.length; i += wordsPerDelta) deltas.push(pieces.slice(i, i + wordsPerDelta).join(''));
  if (deltas.length === 0 && content) deltas.push(content);
  return deltas;
}
