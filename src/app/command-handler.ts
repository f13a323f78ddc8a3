import { randomUUID } from 'node:crypto';
import { eventCatalog, isKnownEventType, parseEventData } from '../../schemas/events/index.ts';
import { type Command, type Decider, type DomainEvent, fold } from '../domain/shared/decider.ts';
import { ConcurrencyError, type EventStore, type NewEvent, type RecordedEvent } from '../ports/event-store.ts';
import type { Backoff } from '../lib/retry.ts';
import { CONFLICT_RETRY, retryOnConflict, type RetryClock } from './conflict-retry.ts';

export type CommandResult<State, E> = { state: State; events: E[]; streamId: string; revision: number; position: bigint };

/** An aggregate's state and the revision of its stream's last event (-1: no stream yet), as a previous result left them. */
export type Known<State> = { state: State; revision: number };

export type CommandOptions<State> = {
  /**
   * The revision the client last saw (If-Match). A stream at another revision is its conflict to
   * resolve: the command is decided once, never again on a fresher state.
   */
  expectedRevision?: number;
  /**
   * State and revision from the previous command on this aggregate (a writer that owns a stream,
   * like the runner its run's): decide on them without reading the stream. Should another writer
   * have appended since, the append conflicts and the shell reads the stream after all. A decision
   * of no events on known state is not checked against the stream.
   */
  known?: Known<State>;
  /** How conflicts are retried: CONFLICT_RETRY unless a test says otherwise. */
  retry?: Backoff;
  clock?: RetryClock;
};

/**
 * The one imperative shell around every decider: read the stream, fold, decide, append with the
 * revision that was read. Another writer in between makes the append fail with ConcurrencyError;
 * then the shell reads, folds and decides again (retryOnConflict: bounded, with jittered waits),
 * except for a command made against a client's `expectedRevision`. The result carries the new
 * state and revision, so a caller's next command can pass them back as `known`.
 */
export async function handleCommand<State, C extends Command, E extends DomainEvent>(
  store: EventStore,
  decider: Decider<State, C, E>,
  aggregateId: string,
  command: C,
  options: CommandOptions<State> = {},
): Promise<CommandResult<State, E>> {
  return handleCommands(store, decider, aggregateId, [command], options);
}

/**
 * Several commands on one aggregate, each decided on the state the previous one's events left, and
 * all their events appended at once: one transaction, one wake of the consumers, one projection of
 * the documents they touch. The runner uses it to record a finished node and the start of the next
 * together. All or nothing: a command refused refuses the lot, and a conflict decides them all again.
 */
export async function handleCommands<State, C extends Command, E extends DomainEvent>(
  store: EventStore,
  decider: Decider<State, C, E>,
  aggregateId: string,
  commands: readonly C[],
  options: CommandOptions<State> = {},
): Promise<CommandResult<State, E>> {
  const streamId = decider.streamId(aggregateId);
  const { expectedRevision, known, retry = CONFLICT_RETRY, clock } = options;
  const read = async (): Promise<Known<State>> => {
    const recorded = await store.readStream(streamId);
    return { state: foldStream(decider, streamId, recorded), revision: recorded.at(-1)?.revision ?? -1 };
  };
  const decideOn = (from: Known<State>) => decideAndAppend(store, decider, streamId, commands, from);
  if (expectedRevision !== undefined) {
    const current = await read();
    if (current.revision !== expectedRevision) throw new ConcurrencyError(streamId, expectedRevision, current.revision < 0 ? 'no_stream' : current.revision);
    return decideOn(current);
  }
  return retryOnConflict(async (attempt) => decideOn(attempt === 1 && known ? known : await read()), retry, clock);
}

async function decideAndAppend<State, C extends Command, E extends DomainEvent>(
  store: EventStore,
  decider: Decider<State, C, E>,
  streamId: string,
  commands: readonly C[],
  { state, revision }: Known<State>,
): Promise<CommandResult<State, E>> {
  const events: E[] = [];
  const recorded: NewEvent[] = [];
  let next = state;
  for (const command of commands) {
    const decided = decider.decide(command, next);
    next = fold(decider.evolve, next, decided);
    events.push(...decided);
    for (const event of decided) recorded.push(toNewEvent(event, command));
  }
  if (events.length === 0) return { state, events, streamId, revision, position: 0n };
  const result = await store.append(streamId, recorded, revision < 0 ? 'no_stream' : revision);
  return { state: next, events, streamId, revision: result.nextRevision, position: result.lastPosition };
}

/**
 * An aggregate's state from its stream's events. An event of another aggregate in its stream is a
 * bug, not something to skip; only what the decider names retired (an earlier layout) is read past.
 */
export function foldStream<State, E extends DomainEvent>(decider: Decider<State, never, E>, streamId: string, recorded: readonly RecordedEvent[]): State {
  let state = decider.initialState();
  for (const event of recorded) {
    if (decider.isEvent(event)) state = decider.evolve(state, event);
    else if (!decider.isRetired?.(event)) throw new Error(`stream ${streamId} holds a ${event.type}, which is not one of its aggregate's events`);
  }
  return state;
}

function toNewEvent(event: DomainEvent, command: Command): NewEvent {
  if (!isKnownEventType(event.type)) throw new Error(`event type ${event.type} is not in the catalog`);
  // The schema is the contract with downstream subscribers: nothing off-schema reaches the log.
  const data = parseEventData(event.type, event.data);
  const { actor, correlationId } = command.metadata;
  return {
    id: randomUUID(),
    type: event.type,
    data,
    metadata: { schemaVersion: eventCatalog[event.type].version, ...(actor && { actor }), ...(correlationId && { correlationId }) },
  };
}
