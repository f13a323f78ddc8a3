import { countTokens } from '../document/tokens.ts';
import { ELLIPSIS } from './excerpt.ts';
import { readingOrder } from './selection.ts';

/**
 * For a request with no passages at all: plain chat, not a question against a knowledge base.
 * This model can only quote retrieved passages, so rather than produce something that looks like
 * an answer it says what it is and what to do instead.
 */
export const NO_KNOWLEDGE_BASE =
  'This is the offline extractive model: it answers only by quoting passages retrieved from a knowledge base, and this request came with none. ' +
  'Ask the question against a knowledge base, or configure a provider chat model for open conversation.';

/** A chosen sentence (or its excerpt), with where it came from. */
export type Pick = { text: string; citation: number; passageRank: number; position: number };

export type Composed = { content: string; truncated: boolean };

const TERMINAL = /[.!?…。！？]+$/u;

/**
 * The answer from sentences picked best first: each followed by its passage's marker, placed
 * before the sentence's closing punctuation ("… in 1998 [2]."), in reading order. Within
 * `maxTokens` the best sentences are kept and the rest dropped; when even the best does not fit
 * it is cut short. `truncated` says the budget changed the answer.
 */
export function composeAnswer(picks: readonly Pick[], maxTokens?: number): Composed {
  const budget = maxTokens ?? Infinity;
  const kept: { pick: Pick; text: string }[] = [];
  let used = 0;
  let truncated = false;
  for (const pick of picks) {
    const text = cite(pick.text, pick.citation);
    // Spaces cost nothing in the estimate, so the answer's tokens are the sum of its sentences'.
    const cost = countTokens(text);
    if (used + cost <= budget) {
      kept.push({ pick, text });
      used += cost;
    } else if (kept.length === 0) {
      // The best sentence is the answer; a shorter, weaker one in its place would not be.
      return { content: cutCited(pick.text, pick.citation, budget), truncated: true };
    } else {
      truncated = true;
    }
  }
  const content = kept
    .sort((a, b) => readingOrder(a.pick, b.pick))
    .map((k) => k.text)
    .join(' ');
  return fitTokens(content, budget, truncated);
}

/** A fixed message within the budget, cut at a word when it does not fit. */
export function fitTokens(content: string, maxTokens = Infinity, truncated = false): Composed {
  if (countTokens(content) <= maxTokens) return { content, truncated };
  return { content: cutWords(content, maxTokens), truncated: true };
}

export function cite(sentence: string, citation: number): string {
  const marker = `[${citation}]`;
  const terminal = sentence.endsWith(` ${ELLIPSIS}`) ? null : TERMINAL.exec(sentence);
  if (terminal) return `${sentence.slice(0, terminal.index).trimEnd()} ${marker}${terminal[0]}`;
  return `${sentence.replace(/[\s,;:–—-]+$/u, '')} ${marker}.`;
}

/** The first words of a sentence that fit, marked as cut and still cited when room allows. */
function cutCited(sentence: string, citation: number, budget: number): string {
  const tail = ` ${ELLIPSIS} [${citation}].`;
  const room = budget - countTokens(tail);
  if (room >= 1) {
    const head = cutWords(sentence.replace(/ …$/, ''), room).replace(/[\s,;:.!?–—-]+$/u, '');
    if (head) return `${head}${tail}`;
  }
  return cutWords(sentence, budget);
}

function cutWords(text: string, budget: number): string {
  const kept: string[] = [];
  let used = 0;
  for (const word of text.split(' ')) {
    const cost = countTokens(word);
    if (used + cost > budget) break;
    kept.push(word);
    used += cost;
  }
  return kept.join(' ');
}
