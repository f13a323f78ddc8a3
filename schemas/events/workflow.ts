import { z } from 'zod';
import { WorkflowGraph } from '../workflow.ts';

const ids = { workflow_id: z.string() };

/** Each create or update carries the whole graph and its version: a run records the version it ran. */
export const WorkflowCreated = z.strictObject({
  ...ids,
  workspace_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  graph: WorkflowGraph,
  version: z.literal(1),
  created_at: z.iso.datetime(),
});

export const WorkflowUpdated = z.strictObject({
  ...ids,
  name: z.string(),
  description: z.string().nullable(),
  graph: WorkflowGraph,
  version: z.int().min(2),
  updated_at: z.iso.datetime(),
});

export const WorkflowDeleted = z.strictObject({ ...ids, deleted_at: z.iso.datetime() });

/**
 * The draft at `version` becomes what runs by default (agents, runs that name no version). The
 * graph is not repeated: the WorkflowCreated or WorkflowUpdated of that version holds it.
 */
export const WorkflowPublished = z.strictObject({ ...ids, version: z.int().min(1), published_at: z.iso.datetime() });

export const workflowEvents = { WorkflowCreated, WorkflowUpdated, WorkflowDeleted, WorkflowPublished } as const;
