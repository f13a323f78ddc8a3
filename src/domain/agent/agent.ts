import type { z } from 'zod';
import { agentEvents, type AgentConfig } from '../../../schemas/events/agent.ts';
import { assertNever, type Command, type Decider, eventsOf } from '../shared/decider.ts';
import { conflict, invalid, missing } from '../shared/errors.ts';

type Events = typeof agentEvents;
export type AgentEvent = { [K in keyof Events]: { type: K; data: z.infer<Events[K]> } }[keyof Events];

type Ids = { agent_id: string; workspace_id: string };

export type AgentCommand =
  | Command<'CreateAgent', Ids & { slug: string; config: AgentConfig }>
  | Command<'UpdateAgent', Ids & { config: AgentConfig }>
  | Command<'PublishAgent', Ids>
  | Command<'UnpublishAgent', Ids>
  | Command<'DeleteAgent', Ids>;

export type AgentState =
  | { status: 'absent' | 'deleted' }
  | { status: 'active'; workspace_id: string; slug: string; draft: AgentConfig; versions: number; published: boolean };

/** An agent answers from its knowledge bases or runs its workflow: one of them, never both. */
function checkConfig(config: AgentConfig) {
  if (config.workflow_id !== null && config.knowledge_base_ids.length > 0) {
    throw invalid('invalid_agent', 'workflow_id: an agent backed by a workflow answers with it; leave knowledge_base_ids empty (the workflow names its own)', 'workflow_id');
  }
}

/**
 * An agent: a draft anyone with write scope edits, and immutable published versions numbered from
 * 1. Publishing freezes the draft as the next version; unpublishing takes the page down, the
 * versions stay (publishing again makes a new one).
 */
export const agentDecider: Decider<AgentState, AgentCommand, AgentEvent> = {
  initialState: () => ({ status: 'absent' }),
  streamId: (id) => `agent-${id}`,
  isEvent: eventsOf(agentEvents),
  decide(command, state) {
    const { now } = command.metadata;
    if (command.type === 'CreateAgent') {
      if (state.status !== 'absent') throw conflict('agent_exists', `agent ${command.data.agent_id} already exists`);
      checkConfig(command.data.config);
      return [{ type: 'AgentCreated', data: { ...command.data, created_at: now } }];
    }
    const { agent_id, workspace_id } = command.data;
    if (state.status !== 'active' || state.workspace_id !== workspace_id) throw missing('agent', agent_id);
    switch (command.type) {
      case 'UpdateAgent':
        checkConfig(command.data.config);
        return [{ type: 'AgentUpdated', data: { agent_id, workspace_id, config: command.data.config, updated_at: now } }];
      case 'PublishAgent':
        return [{ type: 'AgentPublished', data: { agent_id, workspace_id, version: state.versions + 1, slug: state.slug, config: state.draft, published_at: now } }];
      case 'UnpublishAgent':
        if (!state.published) throw conflict('agent_not_published', `agent ${agent_id} is not published`);
        return [{ type: 'AgentUnpublished', data: { agent_id, workspace_id, unpublished_at: now } }];
      case 'DeleteAgent':
        return [{ type: 'AgentDeleted', data: { agent_id, workspace_id, deleted_at: now } }];
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'AgentCreated':
        return { status: 'active', workspace_id: event.data.workspace_id, slug: event.data.slug, draft: event.data.config, versions: 0, published: false };
      case 'AgentUpdated':
        return state.status === 'active' ? { ...state, draft: event.data.config } : state;
      case 'AgentPublished':
        return state.status === 'active' ? { ...state, versions: event.data.version, published: true } : state;
      case 'AgentUnpublished':
        return state.status === 'active' ? { ...state, published: false } : state;
      case 'AgentDeleted':
        return { status: 'deleted' };
      default:
        return assertNever(event);
    }
  },
};
