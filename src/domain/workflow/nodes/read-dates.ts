/** A date found in text: where it is, and the day it names as YYYY-MM-DD. */
export type FoundDate = { start: number; end: number; value: string };

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';
const YEAR = '(\\d{4})';

/** The forms read: ISO (2024-03-05), month first (March 5, 2024; Mar 5th 2024), day first (5 March 2024; 5th of March, 2024), and 2024/03/05. */
const FORMS: { pattern: RegExp; parts: (m: RegExpExecArray) => [string, string, string] }[] = [
  { pattern: /\b(\d{4})[-/](\d{1,2})[-/](\d{1,2})\b/g, parts: (m) => [m[1]!, m[2]!, m[3]!] },
  { pattern: new RegExp(`\\b${MONTH}\\s+${DAY},?\\s+${YEAR}\\b`, 'gi'), parts: (m) => [m[3]!, monthNumber(m[1]!), m[2]!] },
  { pattern: new RegExp(`\\b${DAY}(?:\\s+of)?\\s+${MONTH},?\\s+${YEAR}\\b`, 'gi'), parts: (m) => [m[3]!, monthNumber(m[2]!), m[1]!] },
];

function monthNumber(name: string): string {
  const index = MONTHS.findIndex((month) => month.startsWith(name.toLowerCase().replace('.', '').slice(0, 3)));
  return String(index + 1);
}

/** Every date in the text, in order; one that names no real day (February 30) is not a date. */
export function findDates(text: string): FoundDate[] {
  const found: FoundDate[] = [];
  for (const { pattern, parts } of FORMS) {
    for (const m of text.matchAll(pattern)) {
      const [year, month, day] = parts(m as RegExpExecArray);
      const value = isoDay(Number(year), Number(month), Number(day));
      const start = m.index;
      if (value && !found.some((f) => f.start < start + m[0].length && start < f.end)) found.push({ start, end: start + m[0].length, value });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

function isoDay(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date.toISOString().slice(0, 10);
}
