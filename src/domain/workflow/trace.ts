import type { WorkflowRunEvent } from './run.ts';

/** One attempt at one node, as the debugger shows it. */
export type NodeAttempt = {
  node_id: string;
  node_type: string;
  attempt: number;
  /** `interrupted`: the run stopped (a crash) while this attempt ran, and a later attempt took over. */
  status: 'running' | 'succeeded' | 'failed' | 'interrupted';
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown> | null;
  error: { code: string; message: string } | null;
  elapsed_ms: number | null;
  started_at: string;
  finished_at: string | null;
  /** The earlier run whose recorded outputs this node reused (a run from a chosen node). */
  reused_from: string | null;
};

/**
 * Every node attempt of a run in the order they started, from the run's own events: unlike the run
 * read model, which keeps each node's latest attempt, an attempt cut short by a crash stays visible.
 */
export function traceOf(events: readonly WorkflowRunEvent[]): NodeAttempt[] {
  const attempts: NodeAttempt[] = [];
  const open = new Map<string, NodeAttempt>();
  for (const event of events) {
    switch (event.type) {
      case 'NodeRunStarted': {
        const { node_id, node_type, attempt, inputs, started_at, reused_from } = event.data;
        const earlier = open.get(node_id);
        if (earlier) earlier.status = 'interrupted';
        const entry: NodeAttempt = { node_id, node_type, attempt, status: 'running', inputs, outputs: null, error: null, elapsed_ms: null, started_at, finished_at: null, reused_from: reused_from ?? null };
        attempts.push(entry);
        open.set(node_id, entry);
        break;
      }
      case 'NodeRunSucceeded':
      case 'NodeRunFailed': {
        const entry = open.get(event.data.node_id);
        if (!entry) break;
        open.delete(event.data.node_id);
        entry.elapsed_ms = event.data.elapsed_ms;
        entry.finished_at = event.data.finished_at;
        if (event.type === 'NodeRunSucceeded') Object.assign(entry, { status: 'succeeded', outputs: event.data.outputs });
        else Object.assign(entry, { status: 'failed', error: event.data.error });
        break;
      }
      default:
        break;
    }
  }
  return attempts;
}
