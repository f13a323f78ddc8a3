import type { ChatMessage, ContextPassage } from './messages.ts';
import { countTokens } from '../document/tokens.ts';

/** What every model answers when no passage passed the threshold: nothing to cite, nothing made up (in the question's language: not-covered.ts). */
export { NOT_COVERED_ANSWER } from './not-covered.ts';

/** How a model must use the passages; the knowledge-qa workflow template gives the same rules. */
export const GROUNDING_INSTRUCTIONS = [
  'You answer questions using only the numbered passages from a knowledge base below.',
  'After each statement, cite the passages that support it by their numbers in square brackets, such as [1] or [2][3].',
  'If the passages do not contain the answer, say that the knowledge base does not cover the question, and cite nothing.',
  'Do not use outside knowledge and do not cite numbers that are not listed.',
].join(' ');

/** The best passages that fit the prompt's budget, in rank order; the first always fits. */
export function fitContext<T extends { text: string }>(ranked: readonly T[], maxTokens: number): T[] {
  const chosen: T[] = [];
  let used = 0;
  for (const passage of ranked) {
    const cost = countTokens(passage.text) + 12;
    if (chosen.length > 0 && used + cost > maxTokens) break;
    chosen.push(passage);
    used += cost;
  }
  return chosen;
}

/** Our instructions and the numbered passages first, then the client's own conversation as sent. */
export function groundedMessages(conversation: readonly ChatMessage[], passages: readonly ContextPassage[]): ChatMessage[] {
  return [{ role: 'system', content: `${GROUNDING_INSTRUCTIONS}\n\nPassages:\n\n${numberedPassages(passages)}` }, ...conversation];
}

/** The passages as a prompt lists them, so chat and a workflow's retrieval number them alike. */
export function numberedPassages(passages: readonly ContextPassage[]): string {
  return passages
    .map((p) => {
      const place = [p.source && `source: ${p.source}`, p.page && `page ${p.page}`].filter(Boolean).join(', ');
      return `[${p.index}]${place ? ` (${place})` : ''}\n${p.text}`;
    })
    .join('\n\n');
}
