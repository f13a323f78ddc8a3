import type { ChatRole } from '../../../schemas/events/chat.ts';

/** A function call a model asked for, in OpenAI's shape; `arguments` is the JSON text the model wrote. */
export type ToolCall = { id: string; type: 'function'; function: { name: string; arguments: string } };

/**
 * The conversation as every chat model and the prompt builder see it. An assistant turn may carry
 * the tool calls it made (its content then often empty), and a `tool` turn the result of one.
 */
export type ChatMessage = { role: ChatRole; content: string; toolCalls?: ToolCall[]; toolCallId?: string };

/**
 * A retrieved passage as a model reads it; the answer cites it as `[index]`. `headingEnd`: where the heading path that retrieval
 * puts above the chunk's own text ends in `text` (0 or absent: none), so an answerer can read it as
 * context without quoting it as an answer.
 */
export type ContextPassage = { index: number; text: string; source?: string; page?: number; headingEnd?: number };

/** The last thing the user said: what a conversation asks now (empty without a user message). */
export const lastUserMessage = (messages: readonly ChatMessage[]): string => messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
