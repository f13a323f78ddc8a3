import { z } from 'zod';

export const WorkspaceCreated = z.strictObject({
  workspace_id: z.string(),
  name: z.string(),
  created_at: z.iso.datetime(),
});

export const workspaceEvents = { WorkspaceCreated } as const;
