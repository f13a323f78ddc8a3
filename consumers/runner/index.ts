import { foldStream } from '../../src/app/command-handler.ts';
import { ApiError } from '../../src/ports/api-error.ts';
import { DomainError } from '../../src/domain/shared/errors.ts';
import { workflowRunDecider } from '../../src/domain/workflow/run.ts';
import type { ConsumerGroup } from '../../src/ports/event-bus.ts';
import { executeRun, type Progress, type RunnerDeps } from './execute-run.ts';
import { loadGraph } from './load-graph.ts';
import { runCommand, runWriter } from './run-commands.ts';
import { createRunScheduler, DEFAULT_RUN_LIMITS, type RunLimits } from './scheduler.ts';
import { defineConsumer } from '../shared.ts';

export type { RunnerDeps } from './execute-run.ts';
export type { RunLimits } from './scheduler.ts';

/** Where the runner reports what a failed run's record does not show: the error itself, for operators. */
export type OnInternalError = (error: unknown, runId: string) => void;

/**
 * WorkflowRunRequested → the run, node by node, recorded in the run's stream. Delivery is at least
 * once; the run's own stream decides what is left to do, so a redelivered request does nothing
 * more than what is still missing.
 *
 * Runs go at once, in the slots of a scheduler shared fairly between workspaces (scheduler.ts):
 * the bus hands over further batches while earlier runs go on (`inFlight`: up to `limits.held`
 * requests in hand), and a batch is handled once each of its runs has ended. The checkpoint so
 * never passes a run that has not ended: one in hand at a crash is requested again on the next
 * start, and resumes from its stream (docs/decisions.md, "Workflow runs at once").
 */
export function runnerConsumer(deps: RunnerDeps & { onInternalError?: OnInternalError; limits?: RunLimits }): ConsumerGroup {
  const limits = deps.limits ?? DEFAULT_RUN_LIMITS;
  const scheduler = createRunScheduler(limits);
  // A request handed over again while its run is still going here (a batch retried after another
  // of its runs failed to record its failure) waits for that run rather than running it twice.
  const going = new Map<string, Promise<void>>();
  const runOnceHere = (runId: string, workspaceId: string): Promise<void> => {
    const current = going.get(runId);
    if (current) return current;
    const run = scheduler.schedule(workspaceId, () => runOnce(deps, runId)).finally(() => going.delete(runId));
    going.set(runId, run);
    return run;
  };
  return defineConsumer({
    name: 'runner',
    eventTypes: ['WorkflowRunRequested'],
    batchSize: 8,
    inFlight: limits.held,
    async handle(batch) {
      // Every run of the batch ends before the batch is handled, even when one of them rejects.
      const settled = await Promise.allSettled(batch.map((event) => runOnceHere(event.data.run_id, event.data.workspace_id)));
      const failed = settled.find((outcome) => outcome.status === 'rejected');
      if (failed) throw failed.reason;
    },
    // A run not started yet is given up: its request stays unpassed, and the next start takes it.
    onStop: () => scheduler.dropWaiting(),
    onParked: async (event, error) => {
      await failRun(deps, event.data.run_id, null, error);
    },
  });
}

async function runOnce(deps: RunnerDeps & { onInternalError?: OnInternalError }, runId: string) {
  const progress: Progress = { nodeId: null };
  try {
    const streamId = workflowRunDecider.streamId(runId);
    const history = await deps.ctx.store.readStream(streamId);
    const run = foldStream(workflowRunDecider, streamId, history);
    if (run.status === 'absent' || run.status === 'succeeded' || run.status === 'failed') return;
    // From here on the runner appends on what it knows: this one read of the run's stream.
    const write = runWriter(deps.ctx, runId, { state: run, revision: history.at(-1)?.revision ?? -1 });
    const loaded = await loadGraph(deps.ctx.store, run.workflowId, run.workflowVersion);
    if (!loaded.ok) {
      const error = { code: 'workflow_deleted', message: loaded.message, node_id: null };
      await write.flush({ type: 'FailRun', data: { run_id: runId, error } });
      return;
    }
    const reused = run.reuse ? await recordedOutputs(deps, run.reuse) : undefined;
    await executeRun(deps, { runId, run, history, write, reused }, loaded.graph, progress);
  } catch (error) {
    // A bug or an outage fails this run, not the runner: the other runs still go.
    // Should even that append fail, the bus retries the batch and parks the event in the end.
    await failRun(deps, runId, progress.nodeId, error);
  }
}

/** The outputs the earlier run recorded for the nodes a run from a chosen node takes over. */
async function recordedOutputs(deps: RunnerDeps, reuse: { run_id: string; node_ids: string[] }): Promise<Map<string, Record<string, unknown>>> {
  const wanted = new Set(reuse.node_ids);
  const outputs = new Map<string, Record<string, unknown>>();
  for (const event of await deps.ctx.store.readStream(workflowRunDecider.streamId(reuse.run_id))) {
    if (event.type === 'NodeRunSucceeded' && wanted.has(event.data.node_id)) outputs.set(event.data.node_id, event.data.outputs);
  }
  return outputs;
}

async function failRun(deps: RunnerDeps & { onInternalError?: OnInternalError }, runId: string, nodeId: string | null, error: unknown) {
  // A run's error is shown to API clients: an error meant for them keeps its words, anything else
  // (a bug, an outage) is described generically and its details go to the operators' log.
  const message = error instanceof ApiError ? error.message : 'The run stopped on an internal error; the server log has the details.';
  if (!(error instanceof ApiError)) deps.onInternalError?.(error, runId);
  try {
    await runCommand(deps.ctx, runId, {
      type: 'FailRun',
      data: { run_id: runId, error: { code: 'internal_error', message, node_id: nodeId } },
    });
  } catch (failure) {
    // No such run: there is nothing to mark failed.
    if (!(failure instanceof DomainError)) throw failure;
  }
}
