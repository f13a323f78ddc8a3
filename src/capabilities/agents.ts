import { agentEvents } from '../../schemas/events/agent.ts';
import { agentsProjection, agentVersionsProjection } from '../../projections/agents/index.ts';
import { agentDecider } from '../domain/agent/agent.ts';
import { agentRoutes } from '../http/routes/agents.ts';
import { defineCapability } from './capability.ts';

export const agents = defineCapability({
  name: 'agents',
  summary: 'Agents: instructions, a model and knowledge bases (or a workflow), a draft and published versions; `model: "agt_…"` talks to one.',
  events: agentEvents,
  deciders: [agentDecider],
  projections: [agentsProjection, agentVersionsProjection],
  routes: ({ services }) => agentRoutes(services.agents),
});
