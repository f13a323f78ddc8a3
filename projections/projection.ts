import type { RecordedEvent } from '../src/ports/event-store.ts';

/**
 * A read model as a pure fold: which document an event touches, and what that document becomes.
 * `null` removes the document. The projector does all I/O.
 */
export type Projection<Doc extends Record<string, unknown> = Record<string, unknown>> = {
  collection: string;
  eventTypes: readonly string[];
  /** The documents an event touches (most events touch one). */
  idsOf(event: RecordedEvent): string[];
  evolve(doc: Doc | null, event: RecordedEvent, id: string): Doc | null;
  /**
   * What each document adds to a total kept in another collection (e.g. a knowledge base's
   * document count): when a document changes, its new contribution minus its old one is added
   * there. Additions commute, so a total over many streams needs no order between their events.
   */
  totals?: { collection: string; contribution(doc: Doc): { id: string; fields: Record<string, number> } };
};

export const defineProjection = <Doc extends Record<string, unknown>>(p: Projection<Doc>) => p as unknown as Projection;
