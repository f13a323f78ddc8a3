import type { AgentDoc, AgentVersionDoc } from '../../schemas/read-models/agents.ts';
import { assertNever } from '../../src/domain/shared/decider.ts';
import { defineProjection } from '../projection.ts';

export type { AgentDoc, AgentVersionDoc };

export const agentsProjection = defineProjection<AgentDoc>()({
  collection: 'agents',
  eventTypes: ['AgentCreated', 'AgentUpdated', 'AgentPublished', 'AgentUnpublished', 'AgentDeleted'],
  idsOf: (event) => [event.data.agent_id],
  evolve(doc, event, id) {
    switch (event.type) {
      case 'AgentCreated': {
        const { workspace_id, slug, config, created_at } = event.data;
        return { id, workspace_id, slug, draft: config, published: null, latest_version: 0, created_at, updated_at: created_at };
      }
      case 'AgentUpdated':
        return doc && { ...doc, draft: event.data.config, updated_at: event.data.updated_at };
      case 'AgentPublished': {
        const { version, config, published_at } = event.data;
        return doc && { ...doc, published: { version, config, published_at }, latest_version: version, updated_at: published_at };
      }
      case 'AgentUnpublished':
        return doc && { ...doc, published: null, updated_at: event.data.unpublished_at };
      case 'AgentDeleted':
        return null;
      default:
        return assertNever(event);
    }
  },
});

/** `{agent_id}-v000001`: a version's id, so that an agent's versions sort by number. */
export const agentVersionId = (agentId: string, version: number) => `${agentId}-v${String(version).padStart(6, '0')}`;

export const agentVersionsProjection = defineProjection<AgentVersionDoc>()({
  collection: 'agent_versions',
  eventTypes: ['AgentPublished'],
  idsOf: (event) => [agentVersionId(event.data.agent_id, event.data.version)],
  evolve(_doc, event, id) {
    switch (event.type) {
      case 'AgentPublished': {
        const { agent_id, workspace_id, version, config, published_at } = event.data;
        return { id, agent_id, workspace_id, version, config, published_at };
      }
      default:
        return assertNever(event.type);
    }
  },
});
