/**
 * Entities without a model: what a reader would look up in an index. Runs of capitalised words
 * ("Technology Acceptance Model", "United States"), acronyms and identifiers that mix letters with
 * digits or hyphens ("TAM", "IL-6", "BRCA1", "COVID-19"). Keys are lower-cased so mentions match
 * across spellings of case; a capitalised word that merely starts a sentence is not an entity
 * unless it also appears capitalised mid-sentence.
 */
const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}'’.-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu;
const CONNECTORS = new Set(['of', 'for', 'and', 'de', 'la', 'van', 'von', 'der', 'the']);
const COMMON = new Set(
  'The A An This That These Those It Its In On At For And But Or If When While With Without We Our You Your They Their He She His Her I My Is Are Was Were Be Been As By From To Of Not No Yes All Any Each Some Such Table Figure Fig Page Section Chapter Note Notes See Also However Therefore Thus Here There What Which Who Whom How Why Where After Before During Since Because Although Though Both Either Neither One Two Three First Second Third New'.split(
    ' ',
  ),
);

export function extractEntities(text: string): string[] {
  const found = new Set<string>();
  const tokens = [...text.matchAll(TOKEN)].map((m) => ({ word: m[0].replace(/[.'’]+$/, ''), index: m.index! }));
  let run: string[] = [];
  const flush = () => {
    while (run.length > 0 && CONNECTORS.has(run[run.length - 1]!.toLowerCase())) run.pop();
    if (run.length > 1 || (run.length === 1 && !COMMON.has(run[0]!) && run[0]!.length > 2)) found.add(normalise(run.join(' ')));
    run = [];
  };
  tokens.forEach(({ word, index }, i) => {
    if (isIdentifier(word)) {
      flush();
      found.add(normalise(word));
      return;
    }
    const startsSentence = i === 0 || /[.!?]\s*$/.test(text.slice(Math.max(0, index - 3), index));
    if (/^\p{Lu}\p{Ll}+/u.test(word) && !(COMMON.has(word) && (startsSentence || run.length === 0))) {
      run.push(word);
    } else if (run.length > 0 && CONNECTORS.has(word)) {
      run.push(word);
    } else {
      flush();
    }
  });
  flush();
  return [...found];
}

/** Acronyms (2+ capitals) and tokens mixing letters with digits, like gene or model names. */
function isIdentifier(word: string): boolean {
  if (word.length < 2 || word.length > 40) return false;
  if (/^\p{Lu}{2,}s?$/u.test(word)) return true;
  return /\p{L}/u.test(word) && /\p{N}/u.test(word) && !/^\p{N}+(st|nd|rd|th|s)$/iu.test(word);
}

export const normalise = (entity: string) => entity.toLowerCase().replace(/[’']/g, "'").replace(/\s+/g, ' ').trim();
