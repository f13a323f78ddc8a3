import { foldMarks, isAscii } from './fold.ts';
import { profileOf, type LanguageProfile } from './languages.ts';

/** One word analysed: folded surface form, index term, and whether it is a stop word. */
export type WordAnalysis = { word: string; term: string; stop: boolean };

/** Vocabularies repeat, so analyses are remembered; a cache this full is dropped and refilled rather than kept in LRU order, which costs more per word than it saves. */
const MEMO_LIMIT = 200_000;

const ASCII_LETTERS = /^[a-z]+$/;
/** What NFKC may bring into a word that is no letter: "⒈" becomes "1.", "½" "1⁄2"; terms must stay letters and digits (Mongo uses them as field names). */
const NOT_WORD = /[^\p{L}\p{N}\p{M}]/gu;

/** Per language, a remembered word → analysis function. */
export function createWordAnalysis(): (language: string) => (surface: string) => WordAnalysis {
  const byLanguage = new Map<string, (surface: string) => WordAnalysis>();
  return (language) => {
    let analyse = byLanguage.get(language);
    if (!analyse) byLanguage.set(language, (analyse = memo(analyser(profileOf(language)))));
    return analyse;
  };
}

/**
 * NFKC (full-width letters, ligatures), lower case, stop word check on the unfolded form (each
 * list holds folded variants too), then stem and fold accents: English folds first because
 * Porter knows only a–z and the keyword index was tuned that way ("café" → "cafe"); the Snowball
 * stemmers stem first because their rules read accents.
 */
function analyser(profile: LanguageProfile): (surface: string) => WordAnalysis {
  const { code, stem, stopWords, foldBeforeStem } = profile;
  return (surface) => {
    const lower = isAscii(surface) ? surface.toLowerCase() : surface.normalize('NFKC').toLowerCase().replace(NOT_WORD, '');
    if (lower === '') return { word: '', term: '', stop: true };
    const word = foldMarks(lower, code);
    const stop = stopWords.has(lower) || stopWords.has(word);
    if (foldBeforeStem) return { word, term: ASCII_LETTERS.test(word) ? stem(word) : word, stop };
    return { word, term: foldMarks(stem(lower), code), stop };
  };
}

function memo(analyse: (surface: string) => WordAnalysis): (surface: string) => WordAnalysis {
  let cache = new Map<string, WordAnalysis>();
  return (surface) => {
    let hit = cache.get(surface);
    if (hit === undefined) {
      if (cache.size >= MEMO_LIMIT) cache = new Map();
      cache.set(surface, (hit = analyse(surface)));
    }
    return hit;
  };
}
