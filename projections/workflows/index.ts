import type { WorkflowDoc } from '../../schemas/read-models/workflows.ts';
import { assertNever } from '../../src/domain/shared/decider.ts';
import { defineProjection } from '../projection.ts';

export type { WorkflowDoc };

/** The draft of each workflow and which version is published; a run finds the version it ran in the workflow's stream. */
export const workflowsProjection = defineProjection<WorkflowDoc>()({
  collection: 'workflows',
  eventTypes: ['WorkflowCreated', 'WorkflowUpdated', 'WorkflowDeleted', 'WorkflowPublished'],
  idsOf: (event) => [event.data.workflow_id],
  evolve(doc, event) {
    switch (event.type) {
      case 'WorkflowCreated': {
        const d = event.data;
        return {
          id: d.workflow_id,
          object: 'workflow',
          workspace_id: d.workspace_id,
          name: d.name,
          description: d.description,
          graph: d.graph,
          version: d.version,
          published_version: null,
          published_at: null,
          created_at: d.created_at,
          updated_at: d.created_at,
        };
      }
      case 'WorkflowUpdated': {
        const d = event.data;
        return doc && { ...doc, name: d.name, description: d.description, graph: d.graph, version: d.version, updated_at: d.updated_at };
      }
      case 'WorkflowPublished':
        return doc && { ...doc, published_version: event.data.version, published_at: event.data.published_at };
      case 'WorkflowDeleted':
        return null;
      default:
        return assertNever(event);
    }
  },
});
