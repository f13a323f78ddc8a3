import { stemmer as arabic } from '@orama/stemmers/arabic';
import { stemmer as armenian } from '@orama/stemmers/armenian';
import { stemmer as bulgarian } from '@orama/stemmers/bulgarian';
import { stemmer as danish } from '@orama/stemmers/danish';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as finnish } from '@orama/stemmers/finnish';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as greek } from '@orama/stemmers/greek';
import { stemmer as hungarian } from '@orama/stemmers/hungarian';
import { stemmer as hindi } from '@orama/stemmers/indian';
import { stemmer as indonesian } from '@orama/stemmers/indonesian';
import { stemmer as irish } from '@orama/stemmers/irish';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as lithuanian } from '@orama/stemmers/lithuanian';
import { stemmer as nepali } from '@orama/stemmers/nepali';
import { stemmer as norwegian } from '@orama/stemmers/norwegian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as romanian } from '@orama/stemmers/romanian';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as serbian } from '@orama/stemmers/serbian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as swedish } from '@orama/stemmers/swedish';
import { stemmer as tamil } from '@orama/stemmers/tamil';
import { stemmer as turkish } from '@orama/stemmers/turkish';
import { stemmer as ukrainian } from '@orama/stemmers/ukrainian';
import { stemmer as porter } from 'stemmer';
import { stopWordsOf } from './stop-words.ts';

/**
 * What the analyzer knows of a language: its stemmer (Snowball, from @orama/stemmers, except
 * English: Porter, which the keyword index was tuned with) and its stop words. `foldBeforeStem`
 * says accents go before stemming (Porter knows only a–z) rather than after it (Snowball's
 * French, Spanish… rules read accents: "nationalité" needs its é to lose "-ité").
 */
export type LanguageProfile = { code: string; stem: (word: string) => string; stopWords: ReadonlySet<string>; foldBeforeStem: boolean };

const STEMMERS: Record<string, (word: string) => string> = {
  ar: arabic, hy: armenian, bg: bulgarian, da: danish, nl: dutch, en: porter, fi: finnish, fr: french, de: german, el: greek,
  hu: hungarian, hi: hindi, id: indonesian, ga: irish, it: italian, lt: lithuanian, ne: nepali, no: norwegian, pt: portuguese,
  ro: romanian, ru: russian, sr: serbian, es: spanish, sv: swedish, ta: tamil, tr: turkish, uk: ukrainian,
};

/** Languages with stop words but no stemmer: words are kept whole (Chinese, Japanese, Korean, Thai…). */
const UNSTEMMED = ['zh', 'ja', 'ko', 'th', 'sl', 'vi', 'he', 'fa', 'pl', 'cs', 'sk'];

/** Kept equal to the settings schema's ANALYZER_LANGUAGES (the contract test checks). */
export const SUPPORTED_LANGUAGES: readonly string[] = [...Object.keys(STEMMERS), ...UNSTEMMED].sort();

const profiles = new Map<string, LanguageProfile>();

/** The profile of a supported language, or of 'und' (no stemming, no stop words) for any other code. */
export function profileOf(code: string): LanguageProfile {
  let profile = profiles.get(code);
  if (!profile) {
    const stem = STEMMERS[code];
    profile = {
      code,
      stem: stem ? guardedStem(stem) : (word) => word,
      stopWords: stopWordsOf(code),
      foldBeforeStem: code === 'en',
    };
    profiles.set(code, profile);
  }
  return profile;
}

/** Porter only for a word of three or more letters a–z; a stemmer that throws keeps the word whole. */
function guardedStem(stem: (word: string) => string): (word: string) => string {
  return (word) => {
    if (word.length < 3) return word;
    try {
      return stem(word) || word;
    } catch {
      return word;
    }
  };
}
