import type { EventData } from '../../schemas/events/index.ts';
import type { NodeRunDoc, WorkflowRunDoc } from '../../schemas/read-models/workflow-runs.ts';
import { assertNever } from '../../src/domain/shared/decider.ts';
import { defineProjection } from '../projection.ts';

export type { NodeRunDoc, WorkflowRunDoc };

const ms = (from: string, to: string) => Date.parse(to) - Date.parse(from);

/** A run as `GET /v1/workflow-runs/{id}` shows it: status, and every node's inputs, outputs, timing and error. */
export const workflowRunsProjection = defineProjection<WorkflowRunDoc>()({
  collection: 'workflow_runs',
  eventTypes: ['WorkflowRunRequested', 'WorkflowRunStarted', 'NodeRunStarted', 'NodeRunSucceeded', 'NodeRunFailed', 'WorkflowRunSucceeded', 'WorkflowRunFailed'],
  idsOf: (event) => [event.data.run_id],
  evolve(doc, event) {
    switch (event.type) {
      case 'WorkflowRunRequested':
        return runAsRequested(event.data);
      case 'WorkflowRunStarted':
        return doc && { ...doc, status: 'running', started_at: event.data.started_at };
      case 'NodeRunStarted': {
        const d = event.data;
        const node: NodeRunDoc = {
          node_id: d.node_id,
          node_type: d.node_type,
          status: 'running',
          attempt: d.attempt,
          inputs: d.inputs,
          outputs: null,
          error: null,
          started_at: d.started_at,
          finished_at: null,
          elapsed_ms: null,
        };
        // A node started again after a crash replaces its interrupted attempt.
        return doc && { ...doc, node_runs: [...doc.node_runs.filter((n) => n.node_id !== d.node_id), node] };
      }
      case 'NodeRunSucceeded': {
        const { node_id, outputs, finished_at, elapsed_ms } = event.data;
        return doc && finishNode(doc, node_id, { status: 'succeeded', outputs, error: null, finished_at, elapsed_ms });
      }
      case 'NodeRunFailed': {
        const { node_id, error, finished_at, elapsed_ms } = event.data;
        return doc && finishNode(doc, node_id, { status: 'failed', outputs: null, error, finished_at, elapsed_ms });
      }
      case 'WorkflowRunSucceeded': {
        const d = event.data;
        return doc && { ...doc, status: 'succeeded', outputs: d.outputs, finished_at: d.finished_at, elapsed_ms: ms(doc.created_at, d.finished_at) };
      }
      case 'WorkflowRunFailed': {
        const d = event.data;
        return doc && { ...doc, status: 'failed', error: d.error, finished_at: d.finished_at, elapsed_ms: ms(doc.created_at, d.finished_at) };
      }
      default:
        return assertNever(event);
    }
  },
});

/** A run as it is accepted, before any worker has it: also what an async run request answers. */
export function runAsRequested(d: EventData<'WorkflowRunRequested'>): WorkflowRunDoc {
  return {
    id: d.run_id,
    object: 'workflow_run',
    workspace_id: d.workspace_id,
    workflow_id: d.workflow_id,
    workflow_version: d.workflow_version,
    status: 'queued',
    response_mode: d.response_mode,
    knowledge_base_ids: d.knowledge_base_ids ?? null,
    inputs: d.inputs,
    outputs: null,
    node_runs: [],
    error: null,
    created_at: d.requested_at,
    started_at: null,
    finished_at: null,
    elapsed_ms: null,
  };
}

type NodeOutcome = Pick<NodeRunDoc, 'status' | 'outputs' | 'error' | 'finished_at' | 'elapsed_ms'>;

function finishNode(doc: WorkflowRunDoc, nodeId: string, outcome: NodeOutcome): WorkflowRunDoc {
  return { ...doc, node_runs: doc.node_runs.map((n) => (n.node_id === nodeId ? { ...n, ...outcome } : n)) };
}
