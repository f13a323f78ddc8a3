import { apiError, APIConnectionError, APITimeoutError } from '../errors.ts';
import type { Transport } from '../http.ts';
import { newIdempotencyKey } from '../idempotency.ts';
import { sleep } from '../retry.ts';
import { readJsonEvents } from '../sse.ts';
import type { CreateWorkflow, Deleted, ListParams, Page, ReplaceWorkflow, ResponseMode, ServerEvent, Workflow, WorkflowRun } from '../types.ts';

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
  signal?: AbortSignal;
};

export type WaitForRunOptions = { timeoutMs?: number; pollMs?: number; signal?: AbortSignal };

const finished = (run: WorkflowRun) => run.status === 'succeeded' || run.status === 'failed';
const path = (id: string) => `/workflows/${encodeURIComponent(id)}`;

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
    /** Replaces name, description and graph: a new version (runs already started keep theirs). */
    async update(id: string, body: ReplaceWorkflow, options: { signal?: AbortSignal } = {}): Promise<Workflow> {
      return (await t.json<Workflow>({ method: 'PUT', path: path(id), json: body, signal: options.signal })).body;
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
      const json = { inputs, response_mode: 'streaming' };
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
      const json = { inputs, response_mode: mode };
      const { body: run } = await t.json<WorkflowRun>({ method: 'POST', path: `${path(id)}/run`, json, headers: headers(options.idempotencyKey), signal: options.signal });
      return mode === 'blocking' && !finished(run) ? resource.waitForRun(run.id, { signal: options.signal }) : run;
    },
  };
  return resource;
}

export type WorkflowsResource = ReturnType<typeof workflowsResource>;
