/**
 * `text[start, end)` with every run of white space made one space and the ends trimmed, and for
 * each of its characters where it came from: what lets a match in normalised text point back at
 * the original.
 */
export function normalisedWithOrigin(text: string, start = 0, end = text.length): { normal: string; origin: number[] } {
  let normal = '';
  const origin: number[] = [];
  let space = false;
  for (let i = start; i < end; i++) {
    const ch = text[i]!;
    if (/\s/u.test(ch)) {
      space = normal.length > 0;
      continue;
    }
    if (space) {
      normal += ' ';
      origin.push(i - 1);
      space = false;
    }
    normal += ch;
    origin.push(i);
  }
  return { normal, origin };
}
