import type { WorkflowRunDoc } from '../../../projections/workflow-runs/index.ts';
import type { LiveFeed } from '../../app/live-feed.ts';
import type { WorkflowDebugger } from '../../app/services/workflow-debugger.ts';
import { presentRun, type WorkflowService } from '../../app/services/workflows.ts';
import { ListQuery, listOf } from '../../../schemas/http/common.ts';
import { RunNodeBody, RunWorkflowBody, WorkflowNodeRun, WorkflowRun, WorkflowTrace } from '../../../schemas/http/workflows.ts';
import { route } from '../route.ts';
import { type EventStream, openEventStream } from '../sse.ts';

const tag = 'workflows';
const TERMINAL = new Set(['WorkflowRunSucceeded', 'WorkflowRunFailed']);

export type WorkflowRunRouteDeps = {
  workflows: WorkflowService;
  debugger: WorkflowDebugger;
  feed: LiveFeed;
  blockingWaitMs: number;
  onError(error: unknown, requestId: string): void;
};

/**
 * Resolves when the run reaches a final state or `waitMs` passes, with the run as the read model
 * has it. The feed carries the run's events once projected; subscribing before the first read
 * means a run that finishes in between is still seen. An aborted `signal` stops the wait (its
 * subscription and timer go) and the promise never settles: no one is waiting any more.
 */
export function waitForRun(deps: Pick<WorkflowRunRouteDeps, 'feed'>, read: () => Promise<WorkflowRunDoc>, runId: string, waitMs: number, signal?: AbortSignal): Promise<WorkflowRunDoc> {
  return new Promise((resolve, reject) => {
    let done = false;
    const stop = () => {
      done = true;
      clearTimeout(timer);
      unsubscribe();
    };
    const finish = () => {
      if (done) return;
      stop();
      read().then(resolve, reject);
    };
    const unsubscribe = deps.feed.subscribe(runId, (m) => TERMINAL.has(m.event) && finish());
    const timer = setTimeout(finish, waitMs);
    signal?.addEventListener('abort', stop, { once: true });
    read().then((doc) => (doc.status === 'succeeded' || doc.status === 'failed') && finish(), (error: unknown) => done || reject(error));
  });
}

/** Runs, their traces and live events, and the debugger's single-node runs. */
export function workflowRunRoutes(deps: WorkflowRunRouteDeps) {
  const { workflows, feed, debugger: debug } = deps;
  return [
    route({
      method: 'post',
      path: '/v1/workflows/:workflow_id/run',
      summary: 'Run a workflow (the published version, else the draft; or `version`): blocking (waits for the run), streaming (node events), or async (202, queued); `from` runs again from a node of an earlier run',
      tag,
      scope: 'write',
      load: 'run',
      body: RunWorkflowBody,
      response: WorkflowRun,
      otherStatuses: { 202: 'The run as it stands: `response_mode: "async"`, or a blocking run still going when the wait ended.' },
      eventStream:
        'With `response_mode: "streaming"`: the run’s node events as they happen (`event:` WorkflowNodeStarted, WorkflowNodeSucceeded …), then `event: workflow_run` with the finished run.',
      handle: async ({ ctx, principal, params, body, requestId }) => {
        const idempotencyKey = ctx.get('idempotency-key') || undefined;
        const mode = body.response_mode;
        const { runId, accepted } = await workflows.requestRun(principal, params.workflow_id, { inputs: body.inputs, mode, idempotencyKey, version: body.version, from: body.from });
        const read = () => workflows.run(principal, runId);
        if (mode === 'streaming') {
          const stream = openEventStream(ctx, { onServerError: (error) => deps.onError(error, requestId) });
          return streamRun(stream, read, () => workflows.runEvents(principal, runId), runId);
        }
        // Async answers what it accepted, a run `queued`, however fast a worker then takes it; a
        // repeated Idempotency-Key answers the first run as it stands.
        if (mode === 'async') return { status: 202, body: presentRun(accepted ?? (await read())) };
        const waitMs = mode === 'blocking' ? deps.blockingWaitMs : 0;
        const run = await waitForRun(deps, read, runId, waitMs);
        const finished = run.status === 'succeeded' || run.status === 'failed';
        return { status: finished && mode === 'blocking' ? 200 : 202, body: presentRun(run) };
      },
    }),
    route({
      method: 'get',
      path: '/v1/workflow-runs/:run_id',
      summary: 'Get a workflow run with every node’s inputs, outputs, timings and error',
      tag,
      scope: 'read',
      response: WorkflowRun,
      handle: async ({ principal, params }) => ({ body: presentRun(await workflows.run(principal, params.run_id)) }),
    }),
    route({
      method: 'get',
      path: '/v1/workflows/:workflow_id/runs',
      summary: 'A workflow’s runs, newest first',
      tag,
      scope: 'read',
      query: ListQuery,
      response: listOf(WorkflowRun),
      handle: async ({ principal, params, query }) => ({ body: await workflows.runs(principal, params.workflow_id, query) }),
    }),
    route({
      method: 'get',
      path: '/v1/workflow-runs/:run_id/trace',
      summary: 'Every node attempt of a run in order: inputs, outputs, time and error (an attempt cut short by a crash included)',
      tag,
      scope: 'read',
      response: WorkflowTrace,
      handle: async ({ principal, params }) => ({ body: await debug.trace(principal, params.run_id) }),
    }),
    route({
      method: 'get',
      path: '/v1/workflow-runs/:run_id/events',
      summary: 'Follow a run: its node events so far, then as they happen, then the finished run',
      tag,
      operationId: 'followWorkflowRun',
      scope: 'read',
      eventStream: 'The run’s node events (`event:` NodeRunStarted, NodeRunSucceeded, NodeRunFailed …) from its start, then `event: workflow_run` with the finished run.',
      handle: async ({ ctx, principal, params, requestId }) => {
        const runId = params.run_id;
        await workflows.run(principal, runId);
        const stream = openEventStream(ctx, { onServerError: (error) => deps.onError(error, requestId) });
        return streamRun(stream, () => workflows.run(principal, runId), () => workflows.runEvents(principal, runId), runId);
      },
    }),
    route({
      method: 'post',
      path: '/v1/workflows/:workflow_id/nodes/:node_id/run',
      summary: 'Run one node alone (the draft’s, or `version`’s) with the outputs of the nodes it references given as inputs; nothing is recorded',
      tag,
      operationId: 'runWorkflowNode',
      scope: 'write',
      load: 'run',
      body: RunNodeBody,
      response: WorkflowNodeRun,
      handle: async ({ principal, params, body }) => ({ body: await debug.runNode(principal, params.workflow_id, params.node_id, body) }),
    }),
  ];

  /**
   * The run's events as they happen. A fast run (the in-process runner) may have run nodes before
   * this subscribes, so what the run's stream already holds is sent first and the feed's messages
   * meanwhile wait; an event both read and heard is sent once (the same type and data). Then the
   * finished run as the last event; a client that leaves stops both.
   */
  function streamRun(stream: EventStream, read: () => Promise<WorkflowRunDoc>, recorded: () => Promise<{ type: string; data: unknown }[]>, runId: string) {
    const sent = new Set<string>();
    const forward = (m: { event: string; data: unknown }) => {
      const key = `${m.event}:${JSON.stringify(m.data)}`;
      if (TERMINAL.has(m.event) || sent.has(key)) return;
      sent.add(key);
      stream.send(m.data, m.event);
    };
    let heard: { event: string; data: unknown }[] | null = [];
    const unsubscribe = feed.subscribe(runId, (m) => (heard ? heard.push(m) : forward(m)));
    stream.signal.addEventListener('abort', unsubscribe, { once: true });
    recorded()
      .then((events) => {
        for (const event of events) forward({ event: event.type, data: event.data });
        for (const m of heard ?? []) forward(m);
        heard = null;
        return waitForRun(deps, read, runId, 600_000, stream.signal);
      })
      .then((run) => {
        stream.send(presentRun(run), 'workflow_run');
        stream.end();
      })
      .catch((error: unknown) => stream.fail(error));
    return stream.reply;
  }
}
