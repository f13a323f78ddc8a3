/**
 * Where sentences end inside one stretch of running text, in any of the languages people upload:
 * after . ! ? … followed by space and something that can open a sentence, or after the CJK and
 * Arabic full stops, which need no space. A full stop is not an end after an abbreviation (a
 * multilingual list, and any single letter as in initials), after a small ordinal ("6. Jahrgang",
 * "1. Januar"), or in a dot leader ("Levomoramide ........ 9629").
 */
const CANDIDATE = /[.!?…]+["'”’)\]»]*\s+(?=["'“‘(\[«¿¡]?[\p{Lu}\p{Lo}\p{N}])|[。！？](?:["'”’)\]」』]*)|[؟۔]\s*/gu;

/** Lower-cased, without the final full stop. */
const ABBREVIATIONS = new Set(
  [
    // English
    'e.g', 'i.e', 'etc', 'vs', 'fig', 'figs', 'eq', 'eqs', 'no', 'nos', 'mr', 'mrs', 'ms', 'dr', 'prof', 'st', 'jr', 'sr', 'inc', 'ltd', 'co', 'corp',
    'al', 'approx', 'cf', 'sec', 'vol', 'vols', 'pp', 'ch', 'art', 'dept', 'est', 'gen', 'gov', 'rev', 'u.s', 'u.k', 'a.m', 'p.m', 'ca', 'mt', 'ft',
    'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'ph.d', 'lt', 'col', 'capt', 'sgt', 'ave', 'blvd',
    // German
    'z.b', 'bzw', 'nr', 'abs', 'usw', 'vgl', 'ggf', 'hr', 'fr', 'd.h', 'u.a', 'inkl', 'zzgl', 'mio', 'mrd', 'jh', 'jhd', 'bd', 'str', 'evtl', 'sog',
    'ca', 'geb', 'gest', 'dt', 'engl', 'franz', 'lat', 'u.ä', 'o.ä', 's.o', 's.u', 'v.a', 'z.t', 'n.chr', 'v.chr',
    // French, Spanish, Italian, Portuguese
    'mme', 'mlle', 'env', 'av', 'apr', 'j.-c', 'sra', 'srta', 'dra', 'pág', 'núm', 'ud', 'uds', 'p.ej', 'sig', 'dott', 'sig.ra', 'pag', 'sto', 'sta',
    // Russian
    'т.е', 'т.д', 'т.п', 'т.к', 'г', 'гг', 'в', 'вв', 'им', 'ул', 'др', 'стр', 'см', 'напр', 'тыс', 'млн', 'млрд', 'руб', 'проф', 'акад', 'т.н', 'н.э', 'до н.э',
  ],
);

const ABBREVIATION_TAIL = /(?:^|[\s(«"“])((?:[\p{L}]{1,8}\.){0,3}[\p{L}]{1,8})$/u;
const SINGLE_LETTER = /(?:^|[\s(«"“.-])\p{L}$/u;
const SMALL_ORDINAL = /(?:^|[\s(])\d{1,2}$/u;
const DOT_LEADER = /(?:\.\s?){3,}$/u;

/** End offsets (exclusive, after the punctuation and closing quotes) of each sentence but the last. */
export function sentenceEnds(text: string): number[] {
  const ends: number[] = [];
  for (const match of text.matchAll(CANDIDATE)) {
    const at = match.index;
    const punctuation = match[0].trimEnd();
    const before = text.slice(Math.max(0, at - 40), at);
    if (punctuation.startsWith('.') && !punctuation.startsWith('..') && isNotAnEnd(before, text.slice(at + match[0].length))) continue;
    if (punctuation.startsWith('...') || punctuation.startsWith('. .')) {
      if (DOT_LEADER.test(text.slice(Math.max(0, at - 6), at + punctuation.length)) && /^\p{N}/u.test(text.slice(at + match[0].length))) continue;
    }
    ends.push(at + punctuation.length);
  }
  return ends;
}

function isNotAnEnd(before: string, after: string): boolean {
  const tail = ABBREVIATION_TAIL.exec(before)?.[1]?.toLowerCase();
  if (tail !== undefined && ABBREVIATIONS.has(tail)) return true;
  if (SINGLE_LETTER.test(before)) return true;
  // "6. Jahrgang", "1. Januar": a bare number of one or two digits with a full stop is an ordinal
  // in German, Scandinavian and Slavic writing; English sentences seldom end on one.
  if (SMALL_ORDINAL.test(before) && !/^(?:The|In|It|This|A|An|He|She|They|We|I)\b/.test(after)) return true;
  return false;
}
