/** The conversation as every chat model and the prompt builder see it. */
export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };

/** A retrieved passage as the prompt numbers it: the answer cites it as `[index]`. */
/**
 * A retrieved passage as a model reads it. `headingEnd`: where the heading path that retrieval
 * puts above the chunk's own text ends in `text` (0 or absent: none), so an answerer can read it as
 * context without quoting it as an answer.
 */
export type ContextPassage = { index: number; text: string; source?: string; page?: number; headingEnd?: number };
