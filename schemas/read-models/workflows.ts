import { z } from 'zod';
import { WorkflowGraph } from '../workflow.ts';

/** A workflow's current version as the workflows projection stores it (projections/workflows). */
export const WorkflowDoc = z.object({
  id: z.string(),
  object: z.literal('workflow'),
  workspace_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  graph: WorkflowGraph,
  version: z.int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WorkflowDoc = z.infer<typeof WorkflowDoc>;
