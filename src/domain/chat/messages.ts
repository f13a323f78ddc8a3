/** The conversation as every chat model and the prompt builder see it. */
export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };

/** A retrieved passage as the prompt numbers it: the answer cites it as `[index]`. */
export type ContextPassage = { index: number; text: string; source?: string; page?: number };
