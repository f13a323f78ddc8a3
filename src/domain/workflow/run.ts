import type { z } from 'zod';
import { workflowRunEvents } from '../../../schemas/events/workflow-run.ts';
import type { NodeRunStatus, WorkflowRunStatus } from '../../../schemas/lifecycles.ts';
import { assertNever, type Command, type Decider, eventsOf } from '../shared/decider.ts';
import { conflict, missing } from '../shared/errors.ts';

type Events = typeof workflowRunEvents;
type Data<K extends keyof Events> = z.infer<Events[K]>;

export type WorkflowRunEvent = { [K in keyof Events]: { type: K; data: Data<K> } }[keyof Events];

export type WorkflowRunCommand =
  | Command<'RequestRun', Omit<Data<'WorkflowRunRequested'>, 'requested_at'>>
  | Command<'StartRun', { run_id: string }>
  | Command<'StartNode', Omit<Data<'NodeRunStarted'>, 'started_at' | 'attempt'>>
  | Command<'CompleteNode', Omit<Data<'NodeRunSucceeded'>, 'finished_at'>>
  | Command<'FailNode', Omit<Data<'NodeRunFailed'>, 'finished_at'>>
  | Command<'CompleteRun', Omit<Data<'WorkflowRunSucceeded'>, 'finished_at'>>
  | Command<'FailRun', Omit<Data<'WorkflowRunFailed'>, 'finished_at'>>;

export type NodeState = { status: NodeRunStatus; attempts: number; outputs: Record<string, unknown> | null };

export type WorkflowRunState =
  | { status: 'absent' }
  | {
      status: WorkflowRunStatus;
      workflowId: string;
      workflowVersion: number;
      workspaceId: string;
      inputs: Record<string, unknown>;
      /** A run from a chosen node: the nodes whose outputs come from an earlier run (WorkflowRunRequested.reuse). */
      reuse: { run_id: string; node_ids: string[] } | null;
      nodes: Record<string, NodeState>;
    };

/**
 * A run is requested once, started once, and each node finishes at most once, so a redelivered
 * request or a runner resuming after a crash never repeats finished work: repeated commands
 * decide nothing. Only a node that started and never finished may start again.
 */
export const workflowRunDecider: Decider<WorkflowRunState, WorkflowRunCommand, WorkflowRunEvent> = {
  initialState: () => ({ status: 'absent' }),
  streamId: (id) => `workflow_run-${id}`,
  isEvent: eventsOf(workflowRunEvents),
  decide(command, state) {
    const { now } = command.metadata;
    switch (command.type) {
      case 'RequestRun':
        if (state.status !== 'absent') throw conflict('workflow_run_exists', `run ${command.data.run_id} already exists`);
        return [{ type: 'WorkflowRunRequested', data: { ...command.data, requested_at: now } }];
      case 'StartRun':
        if (requireRun(state, command.data.run_id).status !== 'queued') return [];
        return [{ type: 'WorkflowRunStarted', data: { run_id: command.data.run_id, started_at: now } }];
      case 'StartNode':
        return startNode(command, state);
      case 'CompleteNode':
      case 'FailNode':
        return finishNode(command, state);
      case 'CompleteRun':
        if (requireRun(state, command.data.run_id).status !== 'running') return [];
        return [{ type: 'WorkflowRunSucceeded', data: { ...command.data, finished_at: now } }];
      case 'FailRun': {
        const { status } = requireRun(state, command.data.run_id);
        if (status !== 'queued' && status !== 'running') return [];
        return [{ type: 'WorkflowRunFailed', data: { ...command.data, finished_at: now } }];
      }
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    if (event.type === 'WorkflowRunRequested') {
      const { workflow_id, workflow_version, workspace_id, inputs, reuse } = event.data;
      return { status: 'queued', workflowId: workflow_id, workflowVersion: workflow_version, workspaceId: workspace_id, inputs, reuse: reuse ?? null, nodes: {} };
    }
    if (state.status === 'absent') return state;
    switch (event.type) {
      case 'WorkflowRunStarted':
        return { ...state, status: 'running' };
      case 'NodeRunStarted':
        return { ...state, nodes: { ...state.nodes, [event.data.node_id]: { status: 'running', attempts: event.data.attempt, outputs: null } } };
      case 'NodeRunSucceeded':
        return withNode(state, event.data.node_id, { status: 'succeeded', outputs: event.data.outputs });
      case 'NodeRunFailed':
        return withNode(state, event.data.node_id, { status: 'failed', outputs: null });
      case 'WorkflowRunSucceeded':
        return { ...state, status: 'succeeded' };
      case 'WorkflowRunFailed':
        return { ...state, status: 'failed' };
      default:
        return assertNever(event);
    }
  },
};

type CommandOf<T extends WorkflowRunCommand['type']> = Extract<WorkflowRunCommand, { type: T }>;

/** A node starts again only after a crash left it running: a finished node starts nothing. */
function startNode(command: CommandOf<'StartNode'>, state: WorkflowRunState): WorkflowRunEvent[] {
  const run = requireRunning(state, command.data.run_id);
  const node = run.nodes[command.data.node_id];
  if (node?.status === 'succeeded' || node?.status === 'failed') return [];
  return [{ type: 'NodeRunStarted', data: { ...command.data, attempt: (node?.attempts ?? 0) + 1, started_at: command.metadata.now } }];
}

/** A node finishes once: the first CompleteNode or FailNode decides, a repeated one nothing. */
function finishNode(command: CommandOf<'CompleteNode' | 'FailNode'>, state: WorkflowRunState): WorkflowRunEvent[] {
  const run = requireRunning(state, command.data.run_id);
  const node = run.nodes[command.data.node_id];
  if (!node) throw conflict('node_not_started', `node ${command.data.node_id} has not started`);
  if (node.status !== 'running') return [];
  const finished_at = command.metadata.now;
  return command.type === 'CompleteNode'
    ? [{ type: 'NodeRunSucceeded', data: { ...command.data, finished_at } }]
    : [{ type: 'NodeRunFailed', data: { ...command.data, finished_at } }];
}

type Existing = Exclude<WorkflowRunState, { status: 'absent' }>;

function requireRun(state: WorkflowRunState, runId: string): Existing {
  if (state.status === 'absent') throw missing('workflow_run', runId);
  return state;
}

function requireRunning(state: WorkflowRunState, runId: string): Existing {
  const run = requireRun(state, runId);
  if (run.status !== 'running') throw conflict('workflow_run_not_running', `run ${runId} is ${run.status}`);
  return run;
}

function withNode(state: Existing, nodeId: string, change: Pick<NodeState, 'status' | 'outputs'>): Existing {
  const node = state.nodes[nodeId] ?? { attempts: 1, status: 'running', outputs: null };
  return { ...state, nodes: { ...state.nodes, [nodeId]: { ...node, ...change } } };
}
