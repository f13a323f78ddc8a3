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

/** Read-your-writes: a command answers only once the read models show what it appended. */
export async function settled(ctx: AppContext, ...written: Written[]): Promise<void> {
  await ctx.projections.waitFor(written, ctx.consistencyTimeoutMs);
}

export function commandMetadata(ctx: AppContext, actor?: string, correlationId?: string) {
  return { now: ctx.now().toISOString(), ...(actor && { actor }), ...(correlationId && { correlationId }) };
}
