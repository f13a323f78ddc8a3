import { stopwords as arabic } from '@orama/stopwords/arabic';
import { stopwords as armenian } from '@orama/stopwords/armenian';
import { stopwords as bulgarian } from '@orama/stopwords/bulgarian';
import { stopwords as danish } from '@orama/stopwords/danish';
import { stopwords as dutch } from '@orama/stopwords/dutch';
import { stopwords as finnish } from '@orama/stopwords/finnish';
import { stopwords as french } from '@orama/stopwords/french';
import { stopwords as german } from '@orama/stopwords/german';
import { stopwords as greek } from '@orama/stopwords/greek';
import { stopwords as hungarian } from '@orama/stopwords/hungarian';
import { stopwords as indian } from '@orama/stopwords/indian';
import { stopwords as indonesian } from '@orama/stopwords/indonesian';
import { stopwords as irish } from '@orama/stopwords/irish';
import { stopwords as italian } from '@orama/stopwords/italian';
import { stopwords as japanese } from '@orama/stopwords/japanese';
import { stopwords as lithuanian } from '@orama/stopwords/lithuanian';
import { stopwords as mandarin } from '@orama/stopwords/mandarin';
import { stopwords as nepali } from '@orama/stopwords/nepali';
import { stopwords as norwegian } from '@orama/stopwords/norwegian';
import { stopwords as portuguese } from '@orama/stopwords/portuguese';
import { stopwords as romanian } from '@orama/stopwords/romanian';
import { stopwords as russian } from '@orama/stopwords/russian';
import { stopwords as serbian } from '@orama/stopwords/serbian';
import { stopwords as slovenian } from '@orama/stopwords/slovenian';
import { stopwords as spanish } from '@orama/stopwords/spanish';
import { stopwords as swedish } from '@orama/stopwords/swedish';
import { stopwords as tamil } from '@orama/stopwords/tamil';
import { stopwords as turkish } from '@orama/stopwords/turkish';
import { stopwords as ukrainian } from '@orama/stopwords/ukrainian';
import { foldMarks } from './fold.ts';

/**
 * NLTK's English stop list, less "t" (as in T cells). On SciFact the list hardly matters to
 * quality (nDCG@10 0.6987 with none, 0.6990 with Lucene's 33 words, 0.7017 with this one: BM25's
 * idf already discounts common words), so the longer list wins on what it saves: postings of
 * function words that claims are full of and that every query would otherwise walk.
 */
const ENGLISH = (
  'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself ' +
  'it its itself they them their theirs themselves what which who whom this that these those am is are was were be ' +
  'been being have has had having do does did doing a an the and but if or because as until while of at by for with ' +
  'about against between into through during before after above below to from up down in out on off over under again ' +
  'further then once here there when where why how all any both each few more most other some such no nor not only ' +
  'own same so than too very s can will just don should now'
).split(' ');

/** Other languages: the Snowball project's lists as @orama/stopwords ships them (ISO lists for Chinese and Japanese). */
const LISTS: Record<string, readonly string[]> = { en: ENGLISH, ar: arabic, hy: armenian, bg: bulgarian, da: danish, nl: dutch, fi: finnish, fr: french, de: german, el: greek, hu: hungarian, hi: indian, id: indonesian, ga: irish, it: italian, ja: japanese, lt: lithuanian, zh: mandarin, ne: nepali, no: norwegian, pt: portuguese, ro: romanian, ru: russian, sr: serbian, sl: slovenian, es: spanish, sv: swedish, ta: tamil, tr: turkish, uk: ukrainian };

const sets = new Map<string, ReadonlySet<string>>();

/**
 * A language's stop words as the analyzer compares them: NFKC, lower case, and also with accents
 * folded, so "uber" typed for "über" is a stop word too. Empty for a language without a list.
 */
export function stopWordsOf(code: string): ReadonlySet<string> {
  let set = sets.get(code);
  if (!set) {
    const words = new Set<string>();
    for (const raw of LISTS[code] ?? []) {
      const word = raw.normalize('NFKC').toLowerCase().trim();
      if (word === '') continue;
      words.add(word);
      words.add(foldMarks(word, code));
    }
    sets.set(code, (set = words));
  }
  return set;
}
