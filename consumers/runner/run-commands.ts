import { handleCommand } from '../../src/app/command-handler.ts';
import { type AppContext, commandMetadata } from '../../src/app/context.ts';
import { workflowRunDecider, type WorkflowRunCommand, type WorkflowRunState } from '../../src/domain/workflow/run.ts';
import { ConcurrencyError } from '../../src/ports/event-store.ts';

type Body = Omit<WorkflowRunCommand, 'metadata'>;

/**
 * Appends to a run's stream (the projector tells the live feed once the events are projected). A
 * concurrent writer (an API call failing the run, say) only makes us decide again on the fresher state.
 */
export async function runCommand(ctx: AppContext, runId: string, body: Body, attempts = 3): Promise<WorkflowRunState> {
  try {
    const { state } = await handleCommand(ctx.store, workflowRunDecider, runId, {
      ...body,
      metadata: commandMetadata(ctx, 'runner'),
    } as WorkflowRunCommand);
    return state;
  } catch (error) {
    if (error instanceof ConcurrencyError && attempts > 1) return runCommand(ctx, runId, body, attempts - 1);
    throw error;
  }
}
