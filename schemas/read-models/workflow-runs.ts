import { z } from 'zod';
import { ResponseMode } from '../events/workflow-run.ts';
import { NodeRunStatus, WorkflowRunStatus } from '../lifecycles.ts';

const Values = z.record(z.string(), z.unknown());

/** One node of a run: its latest attempt (a node started again after a crash replaces the interrupted one). */
export const NodeRunDoc = z.object({
  node_id: z.string(),
  node_type: z.string(),
  status: NodeRunStatus,
  attempt: z.int(),
  inputs: Values,
  outputs: Values.nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  elapsed_ms: z.number().nullable(),
});
export type NodeRunDoc = z.infer<typeof NodeRunDoc>;

/** A run as the workflow-runs projection stores it (projections/workflow-runs). */
export const WorkflowRunDoc = z.object({
  id: z.string(),
  object: z.literal('workflow_run'),
  workspace_id: z.string(),
  workflow_id: z.string(),
  workflow_version: z.int(),
  status: WorkflowRunStatus,
  response_mode: ResponseMode,
  /** Who may read the run (see WorkflowRunRequested); null for runs recorded before it was. */
  knowledge_base_ids: z.array(z.string()).nullable(),
  inputs: Values,
  outputs: Values.nullable(),
  node_runs: z.array(NodeRunDoc),
  error: z.object({ code: z.string(), message: z.string(), node_id: z.string().nullable() }).nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  elapsed_ms: z.number().nullable(),
});
export type WorkflowRunDoc = z.infer<typeof WorkflowRunDoc>;
