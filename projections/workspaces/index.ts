import type { WorkspaceDoc } from '../../schemas/read-models/workspaces.ts';
import { assertNever } from '../../src/domain/shared/decider.ts';
import { defineProjection } from '../projection.ts';

export type { WorkspaceDoc };

export const workspacesProjection = defineProjection<WorkspaceDoc>()({
  collection: 'workspaces',
  eventTypes: ['WorkspaceCreated'],
  idsOf: (event) => [event.data.workspace_id],
  evolve(_doc, event) {
    switch (event.type) {
      case 'WorkspaceCreated': {
        const { workspace_id, name, created_at } = event.data;
        return { id: workspace_id, object: 'workspace', name, created_at };
      }
      default:
        return assertNever(event.type);
    }
  },
});
