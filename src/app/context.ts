import { ApiError } from '../ports/api-error.ts';
import type { EventStore } from '../ports/event-store.ts';
import type { ReadModelStore } from '../ports/read-models.ts';
import type { IdGenerator } from './ids.ts';
import type { ProjectionWatch, Written } from './projection-watch.ts';

/** What the application services share: the ports, the clock, ids, and the read side's progress. */
export type AppContext = {
  store: EventStore;
  readModels: ReadModelStore;
  projections: ProjectionWatch;
  newId: IdGenerator;
  now: () => Date;
  /** How long a command waits for its events to reach the read models before answering. */
  consistencyTimeoutMs: number;
};

/**
 * Read-your-writes: a command answers only once the read models show what it appended. When they
 * do not in time (a projector behind a stopped broker), what was appended stays appended: the
 * client hears so in the API's shape (503, retry-after), not as an unexplained 500.
 */
export async function settled(ctx: AppContext, ...written: Written[]): Promise<void> {
  try {
    await ctx.projections.waitFor(written, ctx.consistencyTimeoutMs);
  } catch {
    throw new ApiError(
      503,
      'server_error',
      'read_models_behind',
      `The request was recorded, but the read models did not show it within ${ctx.consistencyTimeoutMs} ms; read it again shortly (an Idempotency-Key makes a retried write safe).`,
      { headers: { 'retry-after': '1' } },
    );
  }
}

export function commandMetadata(ctx: AppContext, actor?: string, correlationId?: string) {
  return { now: ctx.now().toISOString(), ...(actor && { actor }), ...(correlationId && { correlationId }) };
}
