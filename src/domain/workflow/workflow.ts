import type { z } from 'zod';
import { workflowEvents } from '../../../schemas/events/workflow.ts';
import type { WorkflowGraph } from '../../../schemas/workflow.ts';
import { assertNever, type Command, type Decider, eventsOf } from '../shared/decider.ts';
import { conflict, invalid, missing } from '../shared/errors.ts';
import { validateGraph } from './graph.ts';

type Events = typeof workflowEvents;
export type WorkflowEvent = { [K in keyof Events]: { type: K; data: z.infer<Events[K]> } }[keyof Events];

type Target = { workflow_id: string; workspace_id: string };

export type WorkflowCommand =
  | Command<'CreateWorkflow', Target & { name: string; description: string | null; graph: WorkflowGraph }>
  | Command<'UpdateWorkflow', Target & { name?: string; description?: string | null; graph?: WorkflowGraph; expected_version?: number }>
  | Command<'PublishWorkflow', Target>
  | Command<'DeleteWorkflow', Target>;

export type WorkflowState =
  | { status: 'absent' }
  | {
      status: 'active' | 'deleted';
      workspaceId: string;
      name: string;
      description: string | null;
      graph: WorkflowGraph;
      /** The draft: each save is a new version. */
      version: number;
      /** The version runs take unless they name one; null until the first publish. */
      publishedVersion: number | null;
    };

/**
 * Workflows are saved only with a graph that can run: every fault is refused at save, naming its
 * node. Each save is a version (the draft); publishing marks the draft's version as the one that
 * runs by default, as an agent's publish does, so editing never changes what users meet.
 */
export const workflowDecider: Decider<WorkflowState, WorkflowCommand, WorkflowEvent> = {
  initialState: () => ({ status: 'absent' }),
  streamId: (id) => `workflow-${id}`,
  isEvent: eventsOf(workflowEvents),
  decide(command, state) {
    const { data, metadata } = command;
    switch (command.type) {
      case 'CreateWorkflow': {
        if (state.status !== 'absent') throw conflict('workflow_exists', `workflow ${data.workflow_id} already exists`);
        const { graph, name, description, workspace_id } = command.data;
        requireValid(graph);
        return [{ type: 'WorkflowCreated', data: { workflow_id: data.workflow_id, workspace_id, name, description, graph, version: 1, created_at: metadata.now } }];
      }
      case 'UpdateWorkflow': {
        const current = requireActive(state, data);
        const change = command.data;
        if (change.expected_version !== undefined && change.expected_version !== current.version) {
          // The same answer as a knowledge base's stale If-Match (409 concurrent_modification): one rule for clients.
          throw conflict('concurrent_modification', `workflow ${data.workflow_id} is at version ${current.version}, not ${change.expected_version}: someone saved it since you read it. Read it again (GET) and save on top of it.`);
        }
        const graph = change.graph ?? current.graph;
        if (change.graph) requireValid(graph);
        return [
          {
            type: 'WorkflowUpdated',
            data: {
              workflow_id: data.workflow_id,
              name: change.name ?? current.name,
              description: change.description === undefined ? current.description : change.description,
              graph,
              version: current.version + 1,
              updated_at: metadata.now,
            },
          },
        ];
      }
      case 'PublishWorkflow': {
        const current = requireActive(state, data);
        // Publishing what is already published changes nothing: a retried click records nothing twice.
        if (current.publishedVersion === current.version) return [];
        return [{ type: 'WorkflowPublished', data: { workflow_id: data.workflow_id, version: current.version, published_at: metadata.now } }];
      }
      case 'DeleteWorkflow':
        requireActive(state, data);
        return [{ type: 'WorkflowDeleted', data: { workflow_id: data.workflow_id, deleted_at: metadata.now } }];
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'WorkflowCreated': {
        const { workspace_id, name, description, graph, version } = event.data;
        return { status: 'active', workspaceId: workspace_id, name, description, graph, version, publishedVersion: null };
      }
      case 'WorkflowUpdated': {
        if (state.status === 'absent') return state;
        const { name, description, graph, version } = event.data;
        return { ...state, name, description, graph, version };
      }
      case 'WorkflowPublished':
        return state.status === 'absent' ? state : { ...state, publishedVersion: event.data.version };
      case 'WorkflowDeleted':
        return state.status === 'absent' ? state : { ...state, status: 'deleted' };
      default:
        return assertNever(event);
    }
  },
};

function requireActive(state: WorkflowState, target: Target) {
  // Another workspace's workflow answers exactly like a missing one.
  if (state.status !== 'active' || state.workspaceId !== target.workspace_id) throw missing('workflow', target.workflow_id);
  return state;
}

function requireValid(graph: WorkflowGraph) {
  const [fault] = validateGraph(graph);
  if (!fault) return;
  const param = fault.node === null ? 'graph' : `graph.nodes.${fault.node}`;
  throw invalid(`invalid_graph_${fault.code}`, fault.message, param);
}
