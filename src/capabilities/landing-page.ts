import { agentVisitorEvents } from '../../schemas/events/agent.ts';
import { agentVisitorsProjection } from '../../projections/agents/visitors.ts';
import { agentVisitorDecider } from '../domain/agent/visitor.ts';
import { landingAssetRoutes } from '../http/landing/assets.ts';
import { landingRoutes } from '../http/routes/landing.ts';
import { defineCapability } from './capability.ts';

export const landingPage = defineCapability({
  name: 'landing-page',
  summary: 'A published agent’s public page at /a/{slug}: chat without a key, cited page images, feedback, the visitor’s conversation.',
  events: agentVisitorEvents,
  deciders: [agentVisitorDecider],
  projections: [agentVisitorsProjection],
  // The page's own files first: `/assets/landing/…` would otherwise match `/a/:slug/…` (no slug starts with `_`).
  routes: ({ services, settings }) => [
    ...landingAssetRoutes(),
    ...landingRoutes({ landing: services.landingPage, ...settings.landing, trustProxy: settings.trustProxy, onServerError: settings.onServerError }),
  ],
});
