import { randomUUID } from 'node:crypto';
import { eventCatalog, isKnownEventType } from '../../schemas/events/index.ts';
import { type Command, type Decider, type DomainEvent, fold } from '../domain/shared/decider.ts';
import { ConcurrencyError, type EventStore, type NewEvent, type RecordedEvent } from '../ports/event-store.ts';

export type CommandResult<State, E> = { state: State; events: E[]; streamId: string; revision: number; position: bigint };

/**
 * The one imperative shell around every decider: read the stream, fold, decide, append with the
 * revision that was read. Another writer in between makes the append fail with ConcurrencyError.
 * `expectedRevision` (from If-Match) lets a client assert the revision it last saw.
 */
export async function handleCommand<State, C extends Command, E extends DomainEvent>(
  store: EventStore,
  decider: Decider<State, C, E>,
  aggregateId: string,
  command: C,
  options: { expectedRevision?: number } = {},
): Promise<CommandResult<State, E>> {
  const streamId = decider.streamId(aggregateId);
  const recorded = await store.readStream(streamId);
  const state = foldStream(decider, streamId, recorded);
  const current = recorded.length > 0 ? recorded[recorded.length - 1]!.revision : null;
  if (options.expectedRevision !== undefined && options.expectedRevision !== current) {
    throw new ConcurrencyError(streamId, options.expectedRevision, current ?? 'no_stream');
  }
  const events = decider.decide(command, state);
  if (events.length === 0) return { state, events, streamId, revision: current ?? -1, position: 0n };
  const result = await store.append(streamId, events.map((e) => toNewEvent(e, command)), current ?? 'no_stream');
  return { state: fold(decider.evolve, state, events), events, streamId, revision: result.nextRevision, position: result.lastPosition };
}

/** An aggregate's state from its stream's events; an event of another aggregate in its stream is a bug, not something to skip. */
export function foldStream<State, E extends DomainEvent>(decider: Decider<State, never, E>, streamId: string, recorded: readonly RecordedEvent[]): State {
  let state = decider.initialState();
  for (const event of recorded) {
    if (!decider.isEvent(event)) throw new Error(`stream ${streamId} holds a ${event.type}, which is not one of its aggregate's events`);
    state = decider.evolve(state, event);
  }
  return state;
}

function toNewEvent(event: DomainEvent, command: Command): NewEvent {
  if (!isKnownEventType(event.type)) throw new Error(`event type ${event.type} is not in the catalog`);
  const entry = eventCatalog[event.type];
  // The schema is the contract with downstream subscribers: nothing off-schema reaches the log.
  const data = entry.schema.parse(event.data);
  const { actor, correlationId } = command.metadata;
  return {
    id: randomUUID(),
    type: event.type,
    data,
    metadata: { schemaVersion: entry.version, ...(actor && { actor }), ...(correlationId && { correlationId }) },
  };
}
