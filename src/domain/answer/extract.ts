import type { ChatMessage, ContextPassage } from '../chat/messages.ts';
import { notCoveredAnswer } from '../chat/not-covered.ts';
import { composeAnswer, fitTokens, NO_KNOWLEDGE_BASE, type Composed } from './compose.ts';
import { excerpt } from './excerpt.ts';
import { passageSentences } from './passage-sentences.ts';
import { analyseQuestion } from './question.ts';
import type { Rarity } from './rarity.ts';
import type { TermReader } from './words.ts';
import { scoreSentences, termWeights } from './sentence-scoring.ts';
import { selectSentences, type SelectionOptions } from './selection.ts';

/** How the answerer reads text: the shared analyzer's terms, and how telling each word is. */
export type AnswerReader = { read: TermReader; rarity: Rarity };

/** `language`: the question's (ISO 639-1), what a refusal is written in; English when absent. */
export type ExtractionRequest = { messages: readonly ChatMessage[]; passages?: readonly ContextPassage[]; maxTokens?: number; language?: string };

/**
 * The answer to the conversation's question in the passages' own words: the few sentences that
 * match it best, each cited. No passages at all means plain chat, which this cannot serve; passages
 * that share nothing with the question mean the knowledge base has no answer.
 */
export function extractAnswer(request: ExtractionRequest, reader: AnswerReader, options: SelectionOptions = {}): Composed {
  const { rarity, read } = reader;
  const { passages, maxTokens } = request;
  if (passages === undefined) return fitTokens(NO_KNOWLEDGE_BASE, maxTokens);
  const question = analyseQuestion(withoutPassages(request.messages, passages), read);
  const sentences = passageSentences(passages);
  const chosen = withAntecedent(selectSentences(scoreSentences(question, sentences, rarity, read), options), sentences);
  // No sentence answers: the same refusal as when retrieval finds nothing, in the asker's language.
  if (chosen.length === 0) return fitTokens(notCoveredAnswer(request.language), maxTokens);
  const weights = termWeights(question, rarity);
  const weightOf = (stem: string) => weights.get(stem) ?? 0;
  return composeAnswer(
    chosen.map((s) => ({ text: excerpt(s.text, weightOf, read), citation: s.citation, passageRank: s.passageRank, position: s.position })),
    maxTokens,
  );
}

/** A sentence opening like this names what it is about in the sentence before. */
const POINTS_BACK = /^(?:he|she|they|it|its|his|her|their|this|these|those|there|such|the latter|the former)\b/i;

/**
 * "He appointed Robert archbishop …" does not say who appointed him: when the best sentence
 * points back, the sentence before it in its passage comes along, in place of a second pick.
 */
function withAntecedent<T extends { text: string; citation: number; passageRank: number; position: number }>(chosen: T[], sentences: readonly PassageSentenceLike[]): (T | PassageSentenceLike)[] {
  const best = chosen[0];
  if (!best || best.position === 0 || !POINTS_BACK.test(best.text)) return chosen;
  const before = sentences.find((s) => s.passageRank === best.passageRank && s.position === best.position - 1);
  return before ? [before, best] : chosen;
}

type PassageSentenceLike = { text: string; citation: number; passageRank: number; position: number };

/**
 * The messages with the passages' text taken out of them: a prompt may render the passages into
 * the user's message, and their words are not the question's.
 */
function withoutPassages(messages: readonly ChatMessage[], passages: readonly ContextPassage[]): ChatMessage[] {
  return messages.map((m) => {
    if (m.role !== 'user') return m;
    let content = m.content;
    for (const p of passages) if (p.text && content.includes(p.text)) content = content.split(p.text).join(' ');
    return content === m.content ? m : { ...m, content };
  });
}
