import type { NodeStep } from './workflow-api.ts';

/** How far a node got in the run on screen; `interrupted`: cut off by a restart (and tried again); `reused` took a recorded run's outputs (run from here). */
export type NodeStatus = 'running' | 'succeeded' | 'failed' | 'interrupted' | 'reused';
export type Statuses = Record<string, NodeStatus>;

const EVENT_STATUS: Record<string, NodeStatus> = { NodeRunStarted: 'running', NodeRunSucceeded: 'succeeded', NodeRunFailed: 'failed' };

/** The node a run event is about, from its data (JSON text); undefined for anything else. */
export function nodeOfEvent(data: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(data);
    if (parsed && typeof parsed === 'object' && 'node_id' in parsed && typeof parsed.node_id === 'string') return parsed.node_id;
  } catch {
    // Not JSON: no node to colour.
  }
  return undefined;
}

/** The statuses after one event of the stream: a node event moves its node on; any other event leaves them. */
export function applyRunEvent(statuses: Statuses, event: string | undefined, data: string): Statuses {
  const status = event === undefined ? undefined : EVENT_STATUS[event];
  const nodeId = status && nodeOfEvent(data);
  return nodeId ? { ...statuses, [nodeId]: status } : statuses;
}

/** A recorded run's (or trace's) statuses: the latest attempt of each node decides. */
export function statusesOf(nodeRuns: readonly NodeStep[]): Statuses {
  const statuses: Statuses = {};
  for (const run of nodeRuns) statuses[run.node_id] = statusOfStep(run);
  return statuses;
}

/** One recorded attempt's status as the canvas shows it. */
export function statusOfStep(step: { status: string; reused_from?: string | null }): NodeStatus {
  if (step.reused_from) return 'reused';
  if (step.status === 'succeeded' || step.status === 'failed' || step.status === 'interrupted') return step.status;
  return 'running';
}
