type Range = { start: number; end: number };

/**
 * The chunker joins table rows with a space and no full stop ("Region: West; Sales: 12 Region:
 * East; Sales: 9"), so a table reads as one endless sentence. Each row opens with the same first
 * column name; cutting before its every repeat gives the rows back (and whatever came before the
 * first row, such as a heading, as a piece of its own). Ranges are into `sentence`.
 */
export function splitTableRows(sentence: string): Range[] {
  const whole = [{ start: 0, end: sentence.length }];
  const colon = sentence.indexOf(': ');
  if (colon < 1) return whole;
  const key = firstColumn(sentence.slice(0, colon).split(' '), sentence.slice(colon));
  if (!key) return whole;
  const marker = ` ${key}: `;
  const cuts: number[] = [0];
  const first = colon - key.length;
  if (first > 0) cuts.push(first);
  for (let at = sentence.indexOf(marker, Math.max(0, first)); at !== -1; at = sentence.indexOf(marker, at + 1)) cuts.push(at + 1);
  cuts.push(sentence.length);
  const rows: Range[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    let [start, end] = [cuts[i]!, cuts[i + 1]!];
    while (start < end && sentence[start] === ' ') start++;
    while (end > start && sentence[end - 1] === ' ') end--;
    if (end > start) rows.push({ start, end });
  }
  return rows;
}

/**
 * The column name before the first colon: the longest run of words ending there that recurs as
 * often as its last word does ("Stanley Cups: 1 …", not just "Cups"), and not at all when it never
 * recurs (a colon in prose).
 */
function firstColumn(before: readonly string[], rest: string): string | undefined {
  let key: string | undefined;
  let count = 0;
  for (let n = 1; n <= Math.min(4, before.length); n++) {
    const candidate = before.slice(-n).join(' ');
    if (/[|;]/.test(candidate)) break;
    const repeats = rest.split(` ${candidate}: `).length - 1;
    if (repeats === 0 || (n > 1 && repeats < count)) break;
    [key, count] = [candidate, repeats];
  }
  return key;
}
