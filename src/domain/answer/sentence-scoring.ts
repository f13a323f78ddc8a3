import type { PassageSentence } from './passage-sentences.ts';
import type { Question } from './question.ts';
import { typeCue } from './question-type.ts';
import type { Rarity } from './rarity.ts';
import { contentTermsOf, type TermReader } from './words.ts';

export type ScoredSentence = PassageSentence & {
  score: number;
  /** The share of the question's weight the sentence matches, 0..1. */
  coverage: number;
  stems: ReadonlySet<string>;
  /** The last turn's question stems the sentence matches, itself or through its context. */
  covers: ReadonlySet<string>;
};

/** A sentence that has what the question type asks for (a year for "when") gains this much. */
const CUE_BONUS = 0.3;
/** The first passage's sentences gain this much, the last passage's none: retrieval order as a prior. */
const RANK_BONUS = 0.08;
/** Each pair of question words found side by side ("New York", "refund policy"), up to two pairs. */
const PHRASE_BONUS = 0.05;
/**
 * How much a question word counts when it is not in the sentence but in its context (see
 * `contextOf`): "The company was founded in 1998" answers "When was Acme founded?" when the
 * sentence before names Acme.
 */
const CONTEXT_WEIGHT = 0.6;
/** Past this many words a sentence matches more by sheer length, so it is scaled down. */
const LONG_SENTENCE_WORDS = 40;

/**
 * The question's weight for each stem: how much its turn counts times its rarity squared, which
 * spreads the log-rank scale so that "warranty" outweighs "year" by 7 to 1 rather than 2.5 to 1.
 * Words carried from earlier turns weigh no more, all together, than the last turn's own: a long
 * first question must not drown a short follow-up ("How much does it cost?").
 */
export function termWeights(question: Question, rarity: Rarity): Map<string, number> {
  const weights = new Map(question.terms.map((t) => [t.stem, t.weight * rarity(t.word) ** 2]));
  let own = 0;
  let carried = 0;
  for (const t of question.terms) {
    if (t.weight === 1) own += weights.get(t.stem)!;
    else carried += weights.get(t.stem)!;
  }
  if (own > 0 && carried > own) for (const t of question.terms) if (t.weight < 1) weights.set(t.stem, (weights.get(t.stem)! * own) / carried);
  return weights;
}

/**
 * Every sentence that shares at least one content word with the question, scored: the
 * rarity-weighted share of the question it matches, plus bonuses for the kind of answer the
 * question wants, for question phrases kept together, and for the passage's retrieval rank.
 */
export function scoreSentences(question: Question, sentences: readonly PassageSentence[], rarity: Rarity, read: TermReader): ScoredSentence[] {
  return sentenceFeatures(question, sentences, rarity, read).map(({ sentence, features, coverage, stems, covers }) => ({
    ...sentence,
    score: rankScore(features),
    coverage,
    stems,
    covers,
  }));
}

/** What the ranker weighs, each about 0..1; the names index RANKER_WEIGHTS. */
export const FEATURES = ['coverage', 'localCoverage', 'cue', 'together', 'rankPrior', 'first', 'question', 'fewWords', 'long', 'novelty', 'number', 'context'] as const;

export type SentenceFeatures = { sentence: PassageSentence; features: number[]; coverage: number; stems: ReadonlySet<string>; covers: ReadonlySet<string> };

/** Every sentence that shares a content word with the question (itself or through its context), with its features. */
export function sentenceFeatures(question: Question, sentences: readonly PassageSentence[], rarity: Rarity, read: TermReader): SentenceFeatures[] {
  const analysed = sentences.map((sentence) => {
    const terms = contentTermsOf(read, sentence.text);
    return { sentence, terms, stems: new Set(terms.map((t) => t.stem)) };
  });
  const weights = termWeights(question, rarity);
  const local = localWeights(weights, analysed);
  const total = sum(weights.values());
  const localTotal = sum(local.values());
  if (total === 0) return [];
  const isQuestionWord = (word: string) => read(word).some((t) => weights.has(t.stem));
  const lastTurnStems = question.terms.filter((t) => t.weight === 1).map((t) => t.stem);
  const lastTurn = new Set(lastTurnStems);
  const questionPairs = pairs(lastTurnStems);
  const passageCount = sentences.reduce((n, s) => Math.max(n, s.passageRank + 1), 1);

  const out: SentenceFeatures[] = [];
  analysed.forEach(({ sentence, terms, stems }, i) => {
    let own = 0;
    let ownLocal = 0;
    for (const s of stems) {
      own += weights.get(s) ?? 0;
      ownLocal += local.get(s) ?? 0;
    }
    // A heading names what its passage is about (context for the sentences under it), it is no answer.
    if (own === 0 || sentence.heading) return;
    const { context, covers } = contextCredit(analysed, i, weights, lastTurn);
    const coverage = Math.min(1, (own + CONTEXT_WEIGHT * context) / total);
    const sentencePairs = pairs(terms.map((t) => t.stem));
    let together = 0;
    for (const p of questionPairs) if (sentencePairs.has(p)) together++;
    const length = sentence.text.split(' ').length;
    const novel = terms.filter((t) => !weights.has(t.stem)).length;
    const features = [
      coverage,
      localTotal > 0 ? ownLocal / localTotal : 0,
      typeCue(question.type, sentence.text, isQuestionWord),
      Math.min(2, together) / 2,
      1 - sentence.passageRank / passageCount,
      sentence.position === 0 ? 1 : 0,
      /\?["')\]]*$/.test(sentence.text) ? 1 : 0,
      terms.length < 3 ? 1 : 0,
      length > LONG_SENTENCE_WORDS ? 1 - (LONG_SENTENCE_WORDS / length) ** 0.3 : 0,
      terms.length > 0 ? novel / terms.length : 0,
      /\p{N}/u.test(sentence.text) ? 1 : 0,
      Math.min(1, context / total),
    ];
    out.push({ sentence, features, coverage, stems, covers });
  });
  return out;
}

/**
 * Weights of a linear ranker over FEATURES, fitted by bench/ranker-fit.ts (listwise softmax over
 * bench/answer-fit.ts dumps) on the fit halves (even articles) of SQuAD 2.0 and XQuAD in six
 * languages: the sentence holding the gold answer should outscore its passages' other sentences.
 * It ranks that sentence first for 75 % of those questions, against 72 % for the hand-set weights
 * it replaced.
 */
export const RANKER_WEIGHTS: readonly number[] = [4.794, 4.325, 1.276, 0.376, 4.366, -0.039, -0.274, -1.154, -0.012, -1.712, -0.058, 1.176];

function rankScore(features: readonly number[]): number {
  let score = 0;
  for (let k = 0; k < features.length; k++) score += RANKER_WEIGHTS[k]! * features[k]!;
  return score;
}

const sum = (xs: Iterable<number>) => {
  let total = 0;
  for (const x of xs) total += x;
  return total;
};

/**
 * A question word that most of the retrieved sentences share (the subject the passages are all
 * about, "Huguenots" in a Huguenot article) tells the answering sentence from the others less
 * than one few of them have: each weight is scaled by the word's idf over the passages' sentences.
 */
function localWeights(weights: Map<string, number>, analysed: readonly { stems: ReadonlySet<string> }[]): Map<string, number> {
  const n = analysed.length;
  if (n < 4) return weights;
  const out = new Map<string, number>();
  const max = Math.log((n + 1) / 0.5);
  for (const [stem, w] of weights) {
    let df = 0;
    for (const a of analysed) if (a.stems.has(stem)) df++;
    const idf = Math.log((n + 1) / (df + 0.5)) / max;
    out.set(stem, w * idf);
  }
  return out;
}

/** What the sentence's context adds: the weight of question words it holds and the sentence lacks, and the last turn's words covered either way. */
function contextCredit(
  analysed: readonly { sentence: PassageSentence; stems: ReadonlySet<string> }[],
  i: number,
  weights: ReadonlyMap<string, number>,
  lastTurn: ReadonlySet<string>,
): { context: number; covers: Set<string> } {
  const { stems } = analysed[i]!;
  const covers = new Set([...stems].filter((s) => lastTurn.has(s)));
  let context = 0;
  for (const neighbour of contextOf(analysed, i)) {
    for (const s of neighbour.stems) {
      if (stems.has(s) || !weights.has(s) || covers.has(s)) continue;
      context += weights.get(s)!;
      if (lastTurn.has(s)) covers.add(s);
    }
  }
  return { context, covers };
}

/** A sentence opening like this talks about something named before it. */
const ANAPHOR = /^(?:it|its|they|their|them|this|these|that|those|he|she|his|her|such|the|both|each|here|there)\b/i;

/**
 * The passage's first sentence, which often names what the passage is about, and the sentence
 * before when this one points back to it ("It employs …", "The company …"). Only the first for a
 * table row: rows do not continue each other. `analysed` lists each passage's sentences together
 * and in order, as `passageSentences` gives them.
 */
function contextOf<T extends { sentence: PassageSentence }>(analysed: readonly T[], i: number): T[] {
  const { passageRank, position, tableRow, text } = analysed[i]!.sentence;
  if (position === 0) return [];
  const inPassage = (j: number) => (j >= 0 && analysed[j]!.sentence.passageRank === passageRank ? [analysed[j]!] : []);
  const first = inPassage(i - position);
  if (tableRow || position === 1 || !ANAPHOR.test(text)) return first;
  return [...inPassage(i - 1), ...first];
}

function pairs(stems: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 1; i < stems.length; i++) out.add(`${stems[i - 1]} ${stems[i]}`);
  return out;
}
