import { z } from 'zod';

/** A workspace as the workspaces projection stores it (projections/workspaces). */
export const WorkspaceDoc = z.object({ id: z.string(), object: z.literal('workspace'), name: z.string(), created_at: z.string() });
export type WorkspaceDoc = z.infer<typeof WorkspaceDoc>;
