import { z } from 'zod';

const run = { run_id: z.string() };
const RunError = z.strictObject({ code: z.string(), message: z.string(), node_id: z.string().nullable() });
const NodeError = z.strictObject({ code: z.string(), message: z.string() });
const Values = z.record(z.string(), z.unknown());

/** How the caller waits for a run: for its answer, for its events as they happen, or not at all. */
export const ResponseMode = z.enum(['blocking', 'streaming', 'async']);
export type ResponseMode = z.infer<typeof ResponseMode>;

export const WorkflowRunRequested = z.strictObject({
  ...run,
  workflow_id: z.string(),
  workflow_version: z.int().min(1),
  workspace_id: z.string(),
  inputs: Values,
  response_mode: ResponseMode,
  /**
   * The knowledge bases the run's workflow version names: who may read the run. Absent on runs
   * requested before it was recorded; readers then fall back to the workflow's current graph.
   */
  knowledge_base_ids: z.array(z.string()).optional(),
  /**
   * A run from a chosen node (the debugger): these nodes' outputs are taken from that earlier run
   * of the same workflow instead of running them again. Absent on ordinary runs.
   */
  reuse: z.strictObject({ run_id: z.string(), node_ids: z.array(z.string()) }).optional(),
  requested_at: z.iso.datetime(),
});

export const WorkflowRunStarted = z.strictObject({ ...run, started_at: z.iso.datetime() });

/** `attempt` counts starts of the node: a run resumed after a crash starts an unfinished node again. */
export const NodeRunStarted = z.strictObject({
  ...run,
  node_id: z.string(),
  node_type: z.string(),
  attempt: z.int().min(1),
  inputs: Values,
  /** A run from a chosen node: this node's outputs were copied from that earlier run, not computed again. */
  reused_from: z.string().optional(),
  started_at: z.iso.datetime(),
});

export const NodeRunSucceeded = z.strictObject({ ...run, node_id: z.string(), outputs: Values, elapsed_ms: z.number().min(0), finished_at: z.iso.datetime() });

export const NodeRunFailed = z.strictObject({ ...run, node_id: z.string(), error: NodeError, elapsed_ms: z.number().min(0), finished_at: z.iso.datetime() });

export const WorkflowRunSucceeded = z.strictObject({ ...run, outputs: Values, finished_at: z.iso.datetime() });

export const WorkflowRunFailed = z.strictObject({ ...run, error: RunError, finished_at: z.iso.datetime() });

export const workflowRunEvents = {
  WorkflowRunRequested,
  WorkflowRunStarted,
  NodeRunStarted,
  NodeRunSucceeded,
  NodeRunFailed,
  WorkflowRunSucceeded,
  WorkflowRunFailed,
} as const;
