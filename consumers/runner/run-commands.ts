import { handleCommand, type Known } from '../../src/app/command-handler.ts';
import { type AppContext, commandMetadata } from '../../src/app/context.ts';
import { workflowRunDecider, type WorkflowRunCommand, type WorkflowRunState } from '../../src/domain/workflow/run.ts';

/** A run command as the runner writes it: the shell adds the metadata. */
export type RunCommandBody = WorkflowRunCommand extends infer C ? (C extends WorkflowRunCommand ? Omit<C, 'metadata'> : never) : never;

export type RunWriter = (body: RunCommandBody) => Promise<WorkflowRunState>;

/**
 * The runner's appends to one run's stream (the projector tells the live feed once the events are
 * projected). Each command decides on the state and revision the previous one left, so a run
 * reads its stream once however many nodes it has; a concurrent writer (an API call failing the
 * run, say) makes the shell read the stream and decide again on the fresher state.
 */
export function runWriter(ctx: AppContext, runId: string, known: Known<WorkflowRunState>): RunWriter {
  let last = known;
  return async (body) => {
    const result = await handleCommand(ctx.store, workflowRunDecider, runId, { ...body, metadata: commandMetadata(ctx, 'runner') }, { known: last });
    last = { state: result.state, revision: result.revision };
    return result.state;
  };
}

/** One command on a run the runner holds no state of (failing it after an error): the shell reads the stream. */
export async function runCommand(ctx: AppContext, runId: string, body: RunCommandBody): Promise<WorkflowRunState> {
  const { state } = await handleCommand(ctx.store, workflowRunDecider, runId, { ...body, metadata: commandMetadata(ctx, 'runner') });
  return state;
}
