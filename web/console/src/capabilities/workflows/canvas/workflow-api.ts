import type { EventSourceMessage } from 'eventsource-parser';
import { consoleFetch } from '../../../api/client.ts';
import { postEvents } from '../../../api/post-events.ts';
import type { CanvasGraph } from './graph.ts';

/**
 * The calls the canvas makes, with the shapes of docs/api/workflows.md. Through consoleFetch
 * rather than the typed `api`: a save needs its If-Match header and its 412 told apart, a run is
 * a stream, and a GET's ETag is read from the answer's headers.
 */
export type Workflow = {
  id: string;
  name: string;
  description: string | null;
  graph: CanvasGraph;
  version: number;
  published_version?: number | null;
};

export type NodeRun = {
  node_id: string;
  node_type: string;
  attempt?: number;
  status: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown> | null;
  error: { code: string; message: string } | null;
  elapsed_ms: number | null;
  started_at?: string;
  finished_at?: string | null;
  reused_from?: string | null;
};

export type WorkflowRun = {
  id: string;
  workflow_version: number;
  status: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown> | null;
  node_runs: NodeRun[];
  error: { code: string; message: string; node_id: string | null } | null;
  created_at: string;
  elapsed_ms: number | null;
};

export type GraphFault = { node_id: string | null; code: string; message: string; param: string | null };

const path = (id: string) => `/v1/workflows/${encodeURIComponent(id)}`;
const jsonBody = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** The workflow and the version its ETag names (what a save's If-Match must carry). */
export async function loadWorkflow(id: string, signal?: AbortSignal): Promise<Workflow> {
  return (await consoleFetch(path(id), { signal })).json();
}

export async function createWorkflow(body: Record<string, unknown>): Promise<Workflow> {
  return (await consoleFetch('/v1/workflows', jsonBody('POST', body))).json();
}

/** A new version, if the stored one is still `version`: someone else's save in between answers 412 (an ApiFailure). */
export async function saveWorkflow(id: string, body: { name: string; description: string | null; graph: CanvasGraph }, version: number): Promise<Workflow> {
  return (await consoleFetch(path(id), jsonBody('PUT', body, { 'if-match': `"${version}"` }))).json();
}

export async function validateGraph(graph: CanvasGraph): Promise<{ valid: boolean; errors: GraphFault[] }> {
  return (await consoleFetch('/v1/workflows/validate', jsonBody('POST', { graph }))).json();
}

export async function publishWorkflow(id: string): Promise<Workflow> {
  return (await consoleFetch(`${path(id)}/publish`, jsonBody('POST', {}))).json();
}

export async function listRuns(id: string, signal?: AbortSignal): Promise<WorkflowRun[]> {
  const answer: { data: WorkflowRun[] } = await (await consoleFetch(`${path(id)}/runs?limit=20`, { signal })).json();
  return answer.data;
}

export async function runTrace(runId: string, signal?: AbortSignal): Promise<NodeRun[]> {
  const answer: { data: NodeRun[] } = await (await consoleFetch(`/v1/workflow-runs/${encodeURIComponent(runId)}/trace`, { signal })).json();
  return answer.data;
}

/** One node alone, given its upstream nodes' outputs: `{<node id>: {<field>: value}}`. */
export async function runOneNode(id: string, nodeId: string, inputs: Record<string, Record<string, unknown>>): Promise<NodeRun> {
  return (await consoleFetch(`${path(id)}/nodes/${encodeURIComponent(nodeId)}/run`, jsonBody('POST', { inputs }))).json();
}

export type RunRequest = { inputs: Record<string, unknown>; from?: { run_id: string; node_id: string } };

/** A draft run, streamed: each node event and then `workflow_run` with the finished run, as they arrive. */
export function streamRun(id: string, request: RunRequest, onEvent: (message: EventSourceMessage) => void, signal: AbortSignal): Promise<void> {
  return postEvents(`${path(id)}/run`, { ...request, response_mode: 'streaming', version: 'draft' }, onEvent, signal);
}
