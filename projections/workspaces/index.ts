import type { z } from 'zod';
import type { WorkspaceCreated } from '../../schemas/events/workspace.ts';
import { defineProjection } from '../projection.ts';

export type WorkspaceDoc = { id: string; object: 'workspace'; name: string; created_at: string };

export const workspacesProjection = defineProjection<WorkspaceDoc>({
  collection: 'workspaces',
  eventTypes: ['WorkspaceCreated'],
  idsOf: (event) => [(event.data as { workspace_id: string }).workspace_id],
  evolve(_doc, event) {
    const data = event.data as z.infer<typeof WorkspaceCreated>;
    return { id: data.workspace_id, object: 'workspace', name: data.name, created_at: data.created_at };
  },
});
