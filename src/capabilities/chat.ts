/** Chat: /v1/chat/completions and /v1/chat, grounded in retrieved passages (see documents.ts for why an index). */
export { chatEvents } from '../../schemas/events/chat.ts';
export { ChatCompletionBody, ChatCompletion, QuickChatResponse } from '../../schemas/http/chat.ts';
export { chatDecider } from '../domain/chat/chat.ts';
export { contextOf } from '../app/retrieval/retrieved-context.ts';
export { createChatService } from '../app/services/chat.ts';
export { chatRoutes } from '../http/routes/chat.ts';
