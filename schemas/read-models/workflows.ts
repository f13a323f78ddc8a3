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
  /** The draft's version: each save adds one. */
  version: z.int(),
  /** The version runs take when they name none; null until published (then the draft runs). */
  published_version: z.int().nullable(),
  published_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WorkflowDoc = z.infer<typeof WorkflowDoc>;
