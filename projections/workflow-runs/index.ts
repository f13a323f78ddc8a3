import type { z } from 'zod';
import type { workflowRunEvents } from '../../schemas/events/workflow-run.ts';
import { defineProjection } from '../projection.ts';

type E = { [K in keyof typeof workflowRunEvents]: z.infer<(typeof workflowRunEvents)[K]> };

export type NodeRunDoc = {
  node_id: string;
  node_type: string;
  status: 'running' | 'succeeded' | 'failed';
  attempt: number;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown> | null;
  error: { code: string; message: string } | null;
  started_at: string;
  finished_at: string | null;
  elapsed_ms: number | null;
};

export type WorkflowRunDoc = {
  id: string;
  object: 'workflow_run';
  workspace_id: string;
  workflow_id: string;
  workflow_version: number;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  response_mode: 'blocking' | 'streaming' | 'async';
  /** Who may read the run (see WorkflowRunRequested); null for runs recorded before it was. */
  knowledge_base_ids: string[] | null;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown> | null;
  node_runs: NodeRunDoc[];
  error: { code: string; message: string; node_id: string | null } | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  elapsed_ms: number | null;
};

const ms = (from: string, to: string) => Date.parse(to) - Date.parse(from);

/** A run as `GET /v1/workflow-runs/{id}` shows it: status, and every node's inputs, outputs, timing and error. */
export const workflowRunsProjection = defineProjection<WorkflowRunDoc>({
  collection: 'workflow_runs',
  eventTypes: ['WorkflowRunRequested', 'WorkflowRunStarted', 'NodeRunStarted', 'NodeRunSucceeded', 'NodeRunFailed', 'WorkflowRunSucceeded', 'WorkflowRunFailed'],
  idsOf: (event) => [(event.data as { run_id: string }).run_id],
  evolve(doc, event) {
    if (event.type === 'WorkflowRunRequested') {
      const d = event.data as E['WorkflowRunRequested'];
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
    if (!doc) return null;
    switch (event.type) {
      case 'WorkflowRunStarted':
        return { ...doc, status: 'running', started_at: (event.data as E['WorkflowRunStarted']).started_at };
      case 'NodeRunStarted': {
        const d = event.data as E['NodeRunStarted'];
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
        return { ...doc, node_runs: [...doc.node_runs.filter((n) => n.node_id !== d.node_id), node] };
      }
      case 'NodeRunSucceeded':
      case 'NodeRunFailed': {
        const d = event.data as E['NodeRunSucceeded'] & Partial<E['NodeRunFailed']>;
        const finish = (n: NodeRunDoc): NodeRunDoc =>
          n.node_id !== d.node_id
            ? n
            : {
                ...n,
                status: event.type === 'NodeRunSucceeded' ? 'succeeded' : 'failed',
                outputs: event.type === 'NodeRunSucceeded' ? d.outputs : null,
                error: d.error ?? null,
                finished_at: d.finished_at,
                elapsed_ms: d.elapsed_ms,
              };
        return { ...doc, node_runs: doc.node_runs.map(finish) };
      }
      case 'WorkflowRunSucceeded': {
        const d = event.data as E['WorkflowRunSucceeded'];
        return { ...doc, status: 'succeeded', outputs: d.outputs, finished_at: d.finished_at, elapsed_ms: ms(doc.created_at, d.finished_at) };
      }
      case 'WorkflowRunFailed': {
        const d = event.data as E['WorkflowRunFailed'];
        return { ...doc, status: 'failed', error: d.error, finished_at: d.finished_at, elapsed_ms: ms(doc.created_at, d.finished_at) };
      }
      default:
        return doc;
    }
  },
});
