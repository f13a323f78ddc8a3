import { responseEvents } from '../../schemas/events/response.ts';
import { responsesProjection } from '../../projections/responses/index.ts';
import { responseDecider } from '../domain/response/response.ts';
import { responseRoutes } from '../http/routes/responses.ts';
import { defineCapability } from './capability.ts';

export const responses = defineCapability({
  name: 'responses',
  summary: "OpenAI's Responses API: chat under its names, stored to read back and continue.",
  events: responseEvents,
  deciders: [responseDecider],
  projections: [responsesProjection],
  routes: ({ services, settings }) => responseRoutes({ chat: services.chat, responses: services.responses }, settings.onServerError),
});
