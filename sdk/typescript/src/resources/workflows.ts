import { apiError, APIConnectionError, APITimeoutError } from '../errors.ts';
import type { Transport } from '../http.ts';
import { newIdempotencyKey } from '../idempotency.ts';
import { sleep } from '../retry.ts';
import { readJsonEvents } from '../sse.ts';
import type {
  CreateWorkflow,
  Deleted,
  ListParams,
  Page,
  ReplaceWorkflow,
  ResponseMode,
  ServerEvent,
  Workflow,
  WorkflowGraph,
  WorkflowNodeRun,
  WorkflowRun,
  WorkflowTrace,
  WorkflowValidation,
  WorkflowVersion,
  WorkflowVersionRequest,
} from '../types.ts';

export type RunOptions = {
  /**
   * How the server delivers the run. `blocking` (default): the finished run (if the server's own
   * wait runs out first, the SDK polls the run until it finishes); `streaming`: the finished run,
   * with each node event passed to `onEvent` as it happens; `async`: the run as queued.
   */
  mode?: ResponseMode;
  onEvent?: (event: ServerEvent) => void;
  /** Sent as `Idempotency-Key` (a retry then returns the first run). A fresh one per call by default; `false` sends none. */
  idempotencyKey?: string | false;
  /** Which version runs (by default the published one, else the draft). */
  version?: WorkflowVersionRequest;
  /** Run again from a node of an earlier run: the nodes before it reuse what they recorded there. */
  from?: { run_id: string; node_id: string };
  signal?: AbortSignal;
};

export type WaitForRunOptions = { timeoutMs?: number; pollMs?: number; signal?: AbortSignal };

const finished = (run: WorkflowRun) => run.status === 'succeeded' || run.status === 'failed';
const path = (id: string) => `/workflows/${encodeURIComponent(id)}`;

const runChoices = ({ version, from }: Pick<RunOptions, 'version' | 'from'>) => ({ ...(version !== undefined && { version }), ...(from && { from }) });

export function workflowsResource(t: Transport) {
  const headers = (key: string | false | undefined): Record<string, string> => (key === false ? {} : { 'idempotency-key': key ?? newIdempotencyKey() });

  const resource = {
    /** A graph, or `{template: 'knowledge-qa', knowledge_base_id}`; the graph is checked when saved. */
    async create(body: CreateWorkflow, options: { signal?: AbortSignal } = {}): Promise<Workflow> {
      return (await t.json<Workflow>({ method: 'POST', path: '/workflows', json: body, signal: options.signal })).body;
    },
    async list(params: ListParams & { signal?: AbortSignal } = {}): Promise<Page<Workflow>> {
      const { signal, ...query } = params;
      return (await t.json<Page<Workflow>>({ method: 'GET', path: '/workflows', query, signal })).body;
    },
    async get(id: string, options: { signal?: AbortSignal } = {}): Promise<Workflow> {
      return (await t.json<Workflow>({ method: 'GET', path: path(id), signal: options.signal })).body;
    },
    /**
     * Replaces name, description and graph: a new draft version (runs already started keep theirs).
     * `ifMatch`: the version edited; a save made since is refused (409 concurrent_modification).
     */
    async update(id: string, body: ReplaceWorkflow, options: { ifMatch?: number; signal?: AbortSignal } = {}): Promise<Workflow> {
      const headers = options.ifMatch === undefined ? undefined : { 'if-match': `"${options.ifMatch}"` };
      return (await t.json<Workflow>({ method: 'PUT', path: path(id), json: body, headers, signal: options.signal })).body;
    },
    /** The draft becomes the version runs and agents take by default. */
    async publish(id: string, options: { signal?: AbortSignal } = {}): Promise<Workflow> {
      return (await t.json<Workflow>({ method: 'POST', path: `${path(id)}/publish`, signal: options.signal })).body;
    },
    async versions(id: string, options: { signal?: AbortSignal } = {}): Promise<{ object: 'list'; data: WorkflowVersion[] }> {
      return (await t.json<{ object: 'list'; data: WorkflowVersion[] }>({ method: 'GET', path: `${path(id)}/versions`, signal: options.signal })).body;
    },
    /** Every fault of a graph at once, each on its node, without saving it. */
    async validate(graph: WorkflowGraph, options: { signal?: AbortSignal } = {}): Promise<WorkflowValidation> {
      return (await t.json<WorkflowValidation>({ method: 'POST', path: '/workflows/validate', json: { graph }, signal: options.signal })).body;
    },
    async listRuns(id: string, params: ListParams & { signal?: AbortSignal } = {}): Promise<Page<WorkflowRun>> {
      const { signal, ...query } = params;
      return (await t.json<Page<WorkflowRun>>({ method: 'GET', path: `${path(id)}/runs`, query, signal })).body;
    },
    /** Every node attempt of a run in order: inputs, outputs, time and error. */
    async trace(runId: string, options: { signal?: AbortSignal } = {}): Promise<WorkflowTrace> {
      return (await t.json<WorkflowTrace>({ method: 'GET', path: `/workflow-runs/${encodeURIComponent(runId)}/trace`, signal: options.signal })).body;
    },
    /** One node alone, given the outputs of the nodes it references (`{node_id: {field: value}}`); nothing is recorded. */
    async runNode(id: string, nodeId: string, inputs: Record<string, Record<string, unknown>>, options: { version?: WorkflowVersionRequest; signal?: AbortSignal } = {}): Promise<WorkflowNodeRun> {
      const json = { inputs, ...(options.version !== undefined && { version: options.version }) };
      return (await t.json<WorkflowNodeRun>({ method: 'POST', path: `${path(id)}/nodes/${encodeURIComponent(nodeId)}/run`, json, signal: options.signal })).body;
    },
    async delete(id: string, options: { signal?: AbortSignal } = {}): Promise<Deleted> {
      return (await t.json<Deleted>({ method: 'DELETE', path: path(id), signal: options.signal })).body;
    },
    async getRun(runId: string, options: { signal?: AbortSignal } = {}): Promise<WorkflowRun> {
      return (await t.json<WorkflowRun>({ method: 'GET', path: `/workflow-runs/${encodeURIComponent(runId)}`, signal: options.signal })).body;
    },
    /** Polls a run until it has succeeded or failed. */
    async waitForRun(runId: string, options: WaitForRunOptions = {}): Promise<WorkflowRun> {
      const deadline = Date.now() + (options.timeoutMs ?? 600_000);
      for (;;) {
        const run = await resource.getRun(runId, options);
        if (finished(run)) return run;
        if (Date.now() > deadline) throw new APITimeoutError(`Run ${runId} still ${run.status} after ${options.timeoutMs ?? 600_000} ms.`);
        await sleep(options.pollMs ?? 250, options.signal);
      }
    },
    /** The run's node events as the server records them, ending with `{event: 'workflow_run', data: <the run>}`. */
    async *stream(id: string, inputs: Record<string, unknown>, options: Omit<RunOptions, 'mode' | 'onEvent'> = {}): AsyncGenerator<ServerEvent> {
      const json = { inputs, response_mode: 'streaming', ...runChoices(options) };
      const body = await t.stream({ method: 'POST', path: `${path(id)}/run`, json, headers: headers(options.idempotencyKey), signal: options.signal });
      for await (const event of readJsonEvents(body)) {
        if (event.event === 'error') throw apiError(500, event.data);
        yield event;
      }
    },
    /** SPEC.md's workflow run: the workflow's id and an inputs object, answered with the run. */
    async run(id: string, inputs: Record<string, unknown>, options: RunOptions = {}): Promise<WorkflowRun> {
      const mode = options.mode ?? 'blocking';
      if (mode === 'streaming') {
        for await (const event of resource.stream(id, inputs, options)) {
          if (event.event === 'workflow_run') return event.data as unknown as WorkflowRun;
          options.onEvent?.(event);
        }
        throw new APIConnectionError('The run stream ended before the run.');
      }
      const json = { inputs, response_mode: mode, ...runChoices(options) };
      const { body: run } = await t.json<WorkflowRun>({ method: 'POST', path: `${path(id)}/run`, json, headers: headers(options.idempotencyKey), signal: options.signal });
      return mode === 'blocking' && !finished(run) ? resource.waitForRun(run.id, { signal: options.signal }) : run;
    },
  };
  return resource;
}

export type WorkflowsResource = ReturnType<typeof workflowsResource>;
