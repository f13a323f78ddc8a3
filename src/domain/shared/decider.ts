import type { AnyDomainEvent, EventType } from '../../../schemas/events/index.ts';

/** Everything a command needs from the outside world arrives here; the domain reads no clock. */
export type CommandMetadata = { now: string; actor?: string; correlationId?: string };

export type Command<Type extends string = string, Data = unknown> = {
  type: Type;
  data: Data;
  metadata: CommandMetadata;
};

/** An event as the domain sees it, before the store gives it an id and a position. */
export type DomainEvent<Type extends string = string, Data = unknown> = { type: Type; data: Data };

export type Decider<State, C extends Command, E extends DomainEvent> = {
  initialState(): State;
  decide(command: C, state: State): E[];
  evolve(state: State, event: E): State;
  /** Whether an event read from the aggregate's stream is one of its own: the shell folds nothing else. */
  isEvent(event: DomainEvent): event is E;
  /**
   * Events an earlier layout left in the aggregate's stream that it no longer folds (a document's
   * chunk batches before they had streams of their own): read past, where any other foreign event
   * fails loudly.
   */
  isRetired?(event: DomainEvent): boolean;
  /** Stream id of the aggregate a command addresses. */
  streamId(id: string): string;
};

/** The guard of an aggregate's events, from the map of their schemas in the catalog (e.g. `documentEvents`). */
export function eventsOf<K extends EventType>(schemas: { readonly [T in K]: unknown }) {
  return (event: DomainEvent): event is AnyDomainEvent<K> => Object.hasOwn(schemas, event.type);
}

export function fold<State, E>(evolve: (s: State, e: E) => State, initial: State, events: readonly E[]): State {
  return events.reduce(evolve, initial);
}

export function assertNever(value: never): never {
  throw new Error(`unhandled case: ${JSON.stringify(value)}`);
}
