import { handleCommand, handleCommands, type Known } from '../../src/app/command-handler.ts';
import { type AppContext, commandMetadata } from '../../src/app/context.ts';
import { workflowRunDecider, type WorkflowRunCommand, type WorkflowRunState } from '../../src/domain/workflow/run.ts';

/** A run command as the runner writes it: the shell adds the metadata. */
export type RunCommandBody = WorkflowRunCommand extends infer C ? (C extends WorkflowRunCommand ? Omit<C, 'metadata'> : never) : never;

export type RunWriter = {
  /** Holds a command, stamped with the time now, for the next `flush`. */
  queue(body: RunCommandBody): void;
  /** Appends what is queued and then `bodies`, in one append; the run's state after them. */
  flush(...bodies: RunCommandBody[]): Promise<WorkflowRunState>;
};

/**
 * The runner's appends to one run's stream (the projector tells the live feed once the events are
 * projected). Each command decides on the state and revision the previous one left, so a run
 * reads its stream once however many nodes it has; a concurrent writer (an API call failing the
 * run, say) makes the shell read the stream and decide again on the fresher state. Commands are
 * queued until something must be on record (a node that takes time is about to run, or the run
 * ends), so a run of n nodes is a few appends rather than 2n + 2: each append costs a transaction,
 * a wake of every consumer group and a projection of the run's document.
 */
export function runWriter(ctx: AppContext, runId: string, known: Known<WorkflowRunState>): RunWriter {
  let last = known;
  const queued: WorkflowRunCommand[] = [];
  const stamped = (body: RunCommandBody) => ({ ...body, metadata: commandMetadata(ctx, 'runner') }) as WorkflowRunCommand;
  return {
    queue: (body) => void queued.push(stamped(body)),
    async flush(...bodies) {
      const commands = [...queued.splice(0), ...bodies.map(stamped)];
      const result = await handleCommands(ctx.store, workflowRunDecider, runId, commands, { known: last });
      last = { state: result.state, revision: result.revision };
      return result.state;
    },
  };
}

/** One command on a run the runner holds no state of (failing it after an error): the shell reads the stream. */
export async function runCommand(ctx: AppContext, runId: string, body: RunCommandBody): Promise<WorkflowRunState> {
  const { state } = await handleCommand(ctx.store, workflowRunDecider, runId, { ...body, metadata: commandMetadata(ctx, 'runner') });
  return state;
}
