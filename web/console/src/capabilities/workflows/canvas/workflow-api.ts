import type { EventSourceMessage } from 'eventsource-parser';
import { type Answer, api, consoleFetch } from '../../../api/client.ts';
import { postEvents } from '../../../api/post-events.ts';
import type { CanvasGraph } from './graph.ts';

/** The canvas's calls, typed by the API's OpenAPI document (docs/api/workflows.md). */
export type Workflow = Answer<'/v1/workflows/{workflow_id}', 'get'>;
export type WorkflowRun = Answer<'/v1/workflow-runs/{run_id}', 'get'>;
/** One node attempt of a run's trace. */
export type NodeAttempt = Answer<'/v1/workflow-runs/{run_id}/trace', 'get'>['data'][number];
/** A node run alone: an attempt without a place in a run. */
export type NodeRunResult = Answer<'/v1/workflows/{workflow_id}/nodes/{node_id}/run', 'post'>;
export type GraphFault = Answer<'/v1/workflows/validate', 'post'>['errors'][number];
/** What the panel shows of either. */
export type NodeStep = Pick<NodeAttempt, 'node_id' | 'status' | 'inputs' | 'outputs' | 'error' | 'elapsed_ms'> & { attempt?: number; reused_from?: string | null };

const at = (workflowId: string) => ({ params: { path: { workflow_id: workflowId } } });

export async function loadWorkflow(id: string, signal?: AbortSignal): Promise<Workflow> {
  return (await api.GET('/v1/workflows/{workflow_id}', { ...at(id), signal })).data!;
}

/**
 * Create and save go through consoleFetch: the editor's graph holds each config as plain data
 * (CanvasGraph), which the API's node union does not type, and the server checks it anyway. Save
 * sends If-Match, the version this screen edited: a save made since is refused (409).
 */
export async function createWorkflow(body: Record<string, unknown>): Promise<Workflow> {
  return (await consoleFetch('/v1/workflows', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
}

export async function saveWorkflow(id: string, body: { name: string; description: string | null; graph: CanvasGraph }, version: number): Promise<Workflow> {
  const init = { method: 'PUT', headers: { 'content-type': 'application/json', 'if-match': `"${version}"` }, body: JSON.stringify(body) };
  return (await consoleFetch(`/v1/workflows/${encodeURIComponent(id)}`, init)).json();
}

export async function validateGraph(graph: CanvasGraph): Promise<{ valid: boolean; errors: GraphFault[] }> {
  return (await api.POST('/v1/workflows/validate', { body: { graph } })).data!;
}

export async function publishWorkflow(id: string): Promise<Workflow> {
  return (await api.POST('/v1/workflows/{workflow_id}/publish', at(id))).data!;
}

export async function listRuns(id: string, signal?: AbortSignal): Promise<WorkflowRun[]> {
  return (await api.GET('/v1/workflows/{workflow_id}/runs', { params: { path: { workflow_id: id }, query: { limit: 20 } }, signal })).data!.data;
}

export async function runTrace(runId: string, signal?: AbortSignal): Promise<NodeAttempt[]> {
  return (await api.GET('/v1/workflow-runs/{run_id}/trace', { params: { path: { run_id: runId } }, signal })).data!.data;
}

/** One node alone, given its upstream nodes' outputs: `{<node id>: {<field>: value}}`. */
export async function runOneNode(id: string, nodeId: string, inputs: Record<string, Record<string, unknown>>): Promise<NodeRunResult> {
  return (await api.POST('/v1/workflows/{workflow_id}/nodes/{node_id}/run', { params: { path: { workflow_id: id, node_id: nodeId } }, body: { inputs, version: 'draft' } })).data!;
}

export type RunRequest = { inputs: Record<string, unknown>; from?: { run_id: string; node_id: string } };

/** A draft run, streamed: each node event and then `workflow_run` with the finished run, as they arrive. */
export function streamRun(id: string, request: RunRequest, onEvent: (message: EventSourceMessage) => void, signal: AbortSignal): Promise<void> {
  return postEvents(`/v1/workflows/${encodeURIComponent(id)}/run`, { ...request, response_mode: 'streaming', version: 'draft' }, onEvent, signal);
}
