/**
 * A chunk's text under its headings, as the indexes, the reranker and a prompt read it. A chunk
 * that opens with its own heading already carries that heading's line, so it is not repeated.
 */
export function underHeadings(headingPath: readonly string[], text: string): string {
  const last = headingPath.at(-1);
  const headings = last !== undefined && text.startsWith(`${last}\n`) ? headingPath.slice(0, -1) : headingPath;
  return headings.length > 0 ? `${headings.join(' › ')}\n${text}` : text;
}
