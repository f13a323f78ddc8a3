import type { ChatMessage } from '../chat/messages.ts';
import { questionType, type QuestionType } from './question-type.ts';
import { contentTermsOf, type TermReader, words } from './words.ts';

/** A question's content word with how much it counts: earlier turns count less than the last one. */
export type WeightedTerm = { stem: string; word: string; weight: number };

export type Question = {
  /** The last user message, as asked. */
  text: string;
  type: QuestionType;
  /** Distinct by stem, the last message's first, then those carried over from earlier turns. */
  terms: WeightedTerm[];
  /** Whether earlier turns were drawn on. */
  followUp: boolean;
};

/** How much a previous user turn's words count: 0.5 for the one before the last, then fading. */
const CARRY_WEIGHT = 0.5;
const CARRY_DECAY = 0.6;
const CARRY_TURNS = 3;
/** Enough context to steer retrieval without drowning the question that was actually asked. */
const CARRY_MAX_WORDS = 12;

const PRONOUN = new Set(['it', 'its', 'they', 'them', 'their', 'theirs', 'that', 'this', 'these', 'those', 'he', 'she', 'him', 'her', 'his', 'hers', 'there', 'one', 'ones', 'same', 'former', 'latter']);
const LEAD_IN = /^\s*(?:(?:and|but|so|also|then)\b|(?:what|how) about\b|what else\b|why not\b|(?:and|or) (?:what|how|when|who|where|why)\b)/i;

/**
 * The text to search the knowledge base with for a conversation: the last user message, followed
 * by the content words of earlier user turns when it is a follow-up that leans on them ("what about
 * its price?"). Empty when there is no user message.
 */
export function questionFromConversation(messages: readonly ChatMessage[], read: TermReader): string {
  const question = analyseQuestion(messages, read);
  const carried = question.terms.filter((t) => t.weight < 1).slice(0, CARRY_MAX_WORDS);
  return [question.text.trim(), ...carried.map((t) => t.word)].filter(Boolean).join(' ');
}

export function analyseQuestion(messages: readonly ChatMessage[], read: TermReader): Question {
  const userTurns = messages.filter((m) => m.role === 'user').map((m) => m.content);
  const text = userTurns.at(-1) ?? '';
  const earlier = userTurns.slice(0, -1).slice(-CARRY_TURNS).reverse();
  const terms = new Map<string, WeightedTerm>();
  for (const t of contentTermsOf(read, text)) if (!terms.has(t.stem)) terms.set(t.stem, { ...t, weight: 1 });
  let type = questionType(text);
  const followUp = earlier.length > 0 && isFollowUp(text, terms.size, type);
  if (followUp) {
    earlier.forEach((turn, distance) => {
      const weight = CARRY_WEIGHT * CARRY_DECAY ** distance;
      for (const t of contentTermsOf(read, turn)) if (!terms.has(t.stem)) terms.set(t.stem, { ...t, weight });
    });
    // "What about Globex?" after "When was Acme founded?" still asks "when".
    if (type === 'other') type = earlier.map(questionType).find((ty) => ty !== 'other') ?? 'other';
  }
  return { text, type, terms: [...terms.values()], followUp };
}

/**
 * A message leans on earlier turns when it says too little to stand alone ("Why?", "Who is the
 * CEO?", though "What is Vite?" names all it asks about), points back with a pronoun, or opens
 * like a continuation ("and", "what about").
 */
function isFollowUp(text: string, contentWordCount: number, type: QuestionType): boolean {
  if (contentWordCount === 0 || (contentWordCount === 1 && type !== 'definition')) return true;
  if (LEAD_IN.test(text)) return true;
  return words(text).some((w) => PRONOUN.has(w));
}
