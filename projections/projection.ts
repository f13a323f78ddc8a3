import type { EventType } from '../schemas/events/index.ts';
import { hasType, type RecordedEvent } from '../schemas/events/recorded.ts';

type Totals<Doc> = { collection: string; contribution(doc: Doc): { id: string; fields: Record<string, number> } };

/**
 * A read model as a pure fold over the events of the types `T` it lists: which document an event
 * touches, and what that document becomes. `null` removes the document. The projector does all I/O.
 */
export type ProjectionSpec<Doc extends Record<string, unknown>, T extends EventType> = {
  collection: string;
  eventTypes: readonly T[];
  /** The documents an event touches (most events touch one). */
  idsOf(event: RecordedEvent<T>): string[];
  evolve(doc: Doc | null, event: RecordedEvent<T>, id: string): Doc | null;
  /**
   * What each document adds to a total kept in another collection (e.g. a knowledge base's
   * document count): when a document changes, its new contribution minus its old one is added
   * there. Additions commute, so a total over many streams needs no order between their events.
   */
  totals?: Totals<Doc>;
};

/** A projection as the projector runs it: any event of the log in, the projection's own types folded, others left alone. */
export type Projection = {
  collection: string;
  eventTypes: readonly EventType[];
  idsOf(event: RecordedEvent): string[];
  evolve(doc: Record<string, unknown> | null, event: RecordedEvent, id: string): Record<string, unknown> | null;
  totals?: Totals<Record<string, unknown>>;
};

/**
 * `defineProjection<Doc>()({ eventTypes, idsOf, evolve })`: `idsOf` and `evolve` see only events
 * of the listed types, typed by them, so their switches over `event.type` end in an exhaustive
 * `never` check. (Two calls, because TypeScript infers `T` from the list only when `Doc` is not
 * given in the same call.)
 */
export const defineProjection =
  <Doc extends Record<string, unknown>>() =>
  <const T extends EventType>(spec: ProjectionSpec<Doc, T>): Projection =>
    erase(spec);

function erase<Doc extends Record<string, unknown>, T extends EventType>(spec: ProjectionSpec<Doc, T>): Projection {
  const types: ReadonlySet<T> = new Set(spec.eventTypes);
  const { totals } = spec;
  // The read-model store hands documents back untyped; those of this collection are the ones this projection wrote.
  const own = (doc: Record<string, unknown> | null) => doc as Doc | null;
  return {
    collection: spec.collection,
    eventTypes: spec.eventTypes,
    idsOf: (event) => (hasType(types, event) ? spec.idsOf(event) : []),
    evolve: (doc, event, id) => (hasType(types, event) ? spec.evolve(own(doc), event, id) : doc),
    ...(totals && { totals: { collection: totals.collection, contribution: (doc) => totals.contribution(doc as Doc) } }),
  };
}
