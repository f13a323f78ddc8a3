import type { ParameterProperty, ParameterSchema } from './parameter-schema.ts';
import { findDates } from './read-dates.ts';

type Span = { start: number; end: number };
type Found<T> = Span & { value: T };
type FoundNumber = Found<number> & { money: boolean };
type Value = string | number | boolean;

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const CURRENCY = '[$€£¥]|\\b(?:USD|EUR|GBP|CNY|RMB|JPY)\\s?';
const AMOUNT = '-?\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|-?\\d+(?:\\.\\d+)?';
// Not inside a word or a code: the 1742 of "A-1742" is no number of its own, nor negative.
const NUMBER = new RegExp(`(?<![\\p{L}\\p{N}_.-])(${CURRENCY})?(${AMOUNT})(\\s?[kKmM]\\b)?(\\s?(?:USD|EUR|GBP|CNY|RMB|JPY|dollars?|euros?|pounds?|yuan|元))?`, 'gu');
const MONEY_WORDS = /amount|price|cost|total|budget|fee|salary|pay|refund|money|usd|eur|dollar/i;
const YES = /\b(yes|yeah|yep|true|sure|correct)\b/i;
const NO = /\b(no|nope|false|not really)\b/i;

/**
 * What a schema's properties can be read from text without a model: emails, dates (as YYYY-MM-DD),
 * numbers and money amounts, values of an `enum`, yes/no for booleans, and a plain string written
 * as "<name> is …" or "<name>: …". Each value found is used once, properties taking them in the
 * order the schema lists them; what cannot be read is left out, for the node to list as missing.
 */
export function readParameters(text: string, schema: ParameterSchema): Record<string, Value> {
  const emails: Found<string>[] = [...text.matchAll(EMAIL)].map((m) => ({ start: m.index, end: m.index + m[0].length, value: m[0] }));
  const dates = findDates(text);
  const numbers = findNumbers(text, [...emails, ...dates]);
  const taken = new Set<object>();
  const next = <T extends Span>(list: readonly T[], accept: (found: T) => boolean = () => true) => {
    const found = list.find((f) => !taken.has(f) && accept(f));
    if (found) taken.add(found);
    return found;
  };
  const data: Record<string, Value> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    const value = readOne(text, name, property, { emails, dates, numbers, next });
    if (value !== undefined) data[name] = value;
  }
  return data;
}

type Pools = {
  emails: Found<string>[];
  dates: Found<string>[];
  numbers: FoundNumber[];
  next: <T extends Span>(list: readonly T[], accept?: (found: T) => boolean) => T | undefined;
};

function readOne(text: string, name: string, property: ParameterProperty, pools: Pools): Value | undefined {
  if (property.enum) return enumValue(text, property.enum);
  switch (property.type) {
    case 'boolean':
      return yesOrNo(text);
    case 'number':
    case 'integer':
      return numberFor(text, name, property, pools);
    case 'string':
      if (property.format === 'email') return pools.next(pools.emails)?.value;
      if (property.format === 'date') return pools.next(pools.dates)?.value;
      return labelledValue(text, name);
  }
}

function findNumbers(text: string, claimed: readonly Span[]): FoundNumber[] {
  const found: FoundNumber[] = [];
  for (const m of text.matchAll(NUMBER)) {
    const start = m.index;
    const end = start + m[0].length;
    // Digits inside a date or an email address are not numbers of their own.
    if (claimed.some((span) => span.start < end && start < span.end)) continue;
    const scale = { k: 1_000, m: 1_000_000 }[(m[3] ?? '').trim().toLowerCase()] ?? 1;
    const value = Number((m[2] ?? '').replaceAll(',', '')) * scale;
    if (Number.isFinite(value)) found.push({ start, end, value, money: m[1] !== undefined || m[4] !== undefined });
  }
  return found;
}

/**
 * A money-like property (its name or description speaks of amounts, prices, …) takes the first
 * amount written with a currency; otherwise the first number written near one of its name's words;
 * otherwise the next number not yet used.
 */
function numberFor(text: string, name: string, property: ParameterProperty, pools: Pools): number | undefined {
  const fits = (n: FoundNumber) => property.type === 'number' || Number.isInteger(n.value);
  const wantsMoney = MONEY_WORDS.test(`${name} ${property.description ?? ''}`);
  const words = name.toLowerCase().split('_').filter((word) => word.length > 1);
  const nearest = nearestTo(text.toLowerCase(), words, pools.numbers.filter(fits));
  const chosen =
    (wantsMoney ? pools.next(pools.numbers, (n) => n.money && fits(n)) : undefined) ??
    nearest.find((n) => pools.next(pools.numbers, (candidate) => candidate === n) !== undefined) ??
    pools.next(pools.numbers, fits);
  return chosen?.value;
}

/** Numbers with one of the words within 30 characters, nearest first ("2 children and 4 adults": adults is 4). */
function nearestTo(text: string, words: readonly string[], numbers: readonly FoundNumber[]): FoundNumber[] {
  const distance = (n: FoundNumber) => {
    let best = Infinity;
    for (const word of words) {
      for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
        best = Math.min(best, at >= n.end ? at - n.end : Math.max(0, n.start - (at + word.length)));
      }
    }
    return best;
  };
  return numbers
    .map((n) => ({ n, d: distance(n) }))
    .filter(({ d }) => d <= 30)
    .sort((a, b) => a.d - b.d)
    .map(({ n }) => n);
}

/** The allowed value written earliest in the text, as the schema spells it (case does not matter). */
function enumValue(text: string, allowed: readonly (string | number)[]): string | number | undefined {
  let best: { at: number; value: string | number } | undefined;
  for (const value of allowed) {
    const at = new RegExp(`(?<![\\p{L}\\p{N}])${escape(String(value))}(?![\\p{L}\\p{N}])`, 'iu').exec(text)?.index;
    if (at !== undefined && (best === undefined || at < best.at)) best = { at, value };
  }
  return best?.value;
}

function yesOrNo(text: string): boolean | undefined {
  const yes = YES.exec(text)?.index;
  const no = NO.exec(text)?.index;
  if (yes === undefined && no === undefined) return undefined;
  return no === undefined || (yes !== undefined && yes < no);
}

/** "city is Paris", "city: Paris", "the order number = A-17": the words after the property's name, up to punctuation. */
function labelledValue(text: string, name: string): string | undefined {
  const label = name.split('_').filter(Boolean).map(escape).join('[\\s_-]+');
  const m = new RegExp(`\\b${label}\\s*(?:is|:|=|was)\\s*["'“]?([^,.;!?\\n"'”]{1,200})`, 'i').exec(text);
  const value = m?.[1]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
