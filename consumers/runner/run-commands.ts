import { handleCommand } from '../../src/app/command-handler.ts';
import { type AppContext, commandMetadata } from '../../src/app/context.ts';
import type { LiveFeed } from '../../src/app/live-feed.ts';
import { workflowRunDecider, type WorkflowRunCommand, type WorkflowRunState } from '../../src/domain/workflow/run.ts';
import { ConcurrencyError } from '../../src/ports/event-store.ts';

type Body = Omit<WorkflowRunCommand, 'metadata'>;

/**
 * Appends to a run's stream and tells the live feed what was appended. A concurrent writer (an API
 * call failing the run, say) only makes us decide again on the fresher state.
 */
export async function runCommand(ctx: AppContext, feed: LiveFeed | undefined, runId: string, body: Body, attempts = 3): Promise<WorkflowRunState> {
  try {
    const { state, events } = await handleCommand(ctx.store, workflowRunDecider, runId, {
      ...body,
      metadata: commandMetadata(ctx, 'runner'),
    } as WorkflowRunCommand);
    for (const event of events) feed?.publish(runId, { event: event.type, data: event.data as Record<string, unknown> });
    return state;
  } catch (error) {
    if (error instanceof ConcurrencyError && attempts > 1) return runCommand(ctx, feed, runId, body, attempts - 1);
    throw error;
  }
}
