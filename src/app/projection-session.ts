import type { Projection } from '../../projections/projection.ts';
import type { RecordedEvent } from '../ports/event-store.ts';
import type { ReadModelWrite } from '../ports/read-models.ts';

type Versioned = { doc: Record<string, unknown> | null; position: bigint };
type Slot = Versioned & { collection: string; id: string; dirty: boolean };

export type DocLoader = (collection: string, id: string) => Promise<Versioned | null>;

/**
 * Folds events into documents held in memory, loading each document once. An event at or below a
 * document's position was already applied (a redelivery, an overlapping replay) and is skipped,
 * so applying the same events twice changes nothing.
 */
export function createProjectionSession(projectionsFor: (type: string) => readonly Projection[], load: DocLoader) {
  const slots = new Map<string, Slot>();
  const additions = new Map<string, { collection: string; id: string; fields: Record<string, number> }>();
  const add = (collection: string, { id, fields }: { id: string; fields: Record<string, number> }, sign: 1 | -1) => {
    const key = `${collection}\u0000${id}`;
    const entry = additions.get(key) ?? { collection, id, fields: {} };
    for (const [field, amount] of Object.entries(fields)) entry.fields[field] = (entry.fields[field] ?? 0) + sign * amount;
    additions.set(key, entry);
  };
  const slotFor = async (collection: string, id: string): Promise<Slot> => {
    const key = `${collection}\u0000${id}`;
    let slot = slots.get(key);
    if (!slot) {
      const stored = await load(collection, id);
      slot = { collection, id, doc: stored?.doc ?? null, position: stored?.position ?? 0n, dirty: false };
      slots.set(key, slot);
    }
    return slot;
  };
  return {
    async apply(events: readonly RecordedEvent[]) {
      for (const event of events) {
        for (const projection of projectionsFor(event.type)) {
          for (const id of projection.idsOf(event)) {
            const slot = await slotFor(projection.collection, id);
            if (event.position <= slot.position) continue;
            const before = slot.doc;
            slot.doc = projection.evolve(slot.doc, event, id);
            if (projection.totals && before !== slot.doc) {
              const { collection, contribution } = projection.totals;
              if (before) add(collection, contribution(before), -1);
              if (slot.doc) add(collection, contribution(slot.doc), 1);
            }
            slot.position = event.position;
            slot.dirty = true;
          }
        }
      }
    },
    /** The writes for every document changed since the last drain, and what they add to totals. */
    drain(): ReadModelWrite[] {
      const writes: ReadModelWrite[] = [];
      for (const slot of slots.values()) {
        if (!slot.dirty) continue;
        slot.dirty = false;
        const { collection, id, doc, position } = slot;
        writes.push(doc === null ? { op: 'delete', collection, id, position } : { op: 'put', collection, id, doc, position });
      }
      for (const { collection, id, fields } of additions.values()) {
        const changed = Object.entries(fields).filter(([, amount]) => amount !== 0);
        if (changed.length > 0) writes.push({ op: 'add', collection, id, fields: Object.fromEntries(changed) });
      }
      additions.clear();
      return writes;
    },
    size: () => slots.size,
  };
}
