import { agentVisitorEvents } from '../../schemas/events/agent.ts';
import { agentVisitorsProjection } from '../../projections/agents/visitors.ts';
import { agentVisitorDecider } from '../domain/agent/visitor.ts';
import { landingRoutes } from '../http/routes/landing.ts';
import { defineCapability } from './capability.ts';

export const landingPage = defineCapability({
  name: 'landing-page',
  summary: 'A published agent’s public page at /a/{slug}: chat without a key, cited page images, feedback, the visitor’s conversation.',
  events: agentVisitorEvents,
  deciders: [agentVisitorDecider],
  projections: [agentVisitorsProjection],
  routes: ({ services, settings }) =>
    landingRoutes({ landing: services.landingPage, messagesPerMinutePerIp: settings.landing.messagesPerMinutePerIp, cookieKey: settings.landing.cookieKey, onServerError: settings.onServerError }),
});
