import type { WorkflowGraph } from '../../schemas/workflow.ts';
import type { EventStore } from '../../src/ports/event-store.ts';
import { workflowDecider } from '../../src/domain/workflow/workflow.ts';

export type LoadedGraph = { ok: true; graph: WorkflowGraph } | { ok: false; message: string };

/**
 * The graph exactly as saved at the version the run was requested against, so an edit made while
 * the run was queued changes nothing about it. A deleted workflow runs nothing, whatever version.
 */
export async function loadGraph(store: EventStore, workflowId: string, version: number): Promise<LoadedGraph> {
  const events = await store.readStream(workflowDecider.streamId(workflowId));
  if (events.some((e) => e.type === 'WorkflowDeleted')) {
    return { ok: false, message: `workflow ${workflowId} was deleted before the run started` };
  }
  for (const event of events) {
    if ((event.type === 'WorkflowCreated' || event.type === 'WorkflowUpdated') && event.data.version === version) return { ok: true, graph: event.data.graph };
  }
  return { ok: false, message: `workflow ${workflowId} has no version ${version}` };
}
