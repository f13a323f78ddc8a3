import { chatEvents } from '../../schemas/events/chat.ts';
import { chatDecider } from '../domain/chat/chat.ts';
import { chatRoutes } from '../http/routes/chat.ts';
import { defineCapability } from './capability.ts';

export const chat = defineCapability({
  name: 'chat',
  summary: '/v1/chat/completions and /v1/chat, grounded in retrieved passages, with citations.',
  events: chatEvents,
  deciders: [chatDecider],
  routes: ({ services, settings }) => chatRoutes(services.chat, settings.onServerError),
});
