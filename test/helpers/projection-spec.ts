import type { ExecutionContext } from 'ava';
import { randomUUID } from 'node:crypto';
import type { Projection } from '../../projections/projection.ts';
import { parseRecordedEvent } from '../../schemas/events/recorded.ts';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { createSqliteReadModelStore } from '../../src/adapters/sqlite/read-model-store.ts';
import { indexProjections, projectBatch } from '../../src/app/projector.ts';
import type { RecordedEvent, StoredEvent } from '../../src/ports/event-store.ts';

type Given = { type: string; data: unknown; streamId?: string };

/** A given event as the log would hold it: of a catalog type, its data on its schema (as the command shell appends). */
function given(stored: StoredEvent): RecordedEvent {
  const parsed = parseRecordedEvent(stored);
  if (!parsed.ok) throw new Error(`given event ${stored.type}: ${parsed.problem}`);
  return parsed.event;
}

/**
 * given(events) → then(documents). Every case also applies the same events a second time, as
 * an at-least-once redelivery would, and checks that nothing changes. `tombstones` names
 * documents a delete must have left behind as tombstones (gone from reads, position kept).
 */
export function projectionSpec(projections: readonly Projection[]) {
  const { projectionsFor } = indexProjections(projections);
  return (t: ExecutionContext) => ({
    given: (...events: Given[]) => ({
      then: async (collection: string, expected: Record<string, unknown>, { tombstones = [] }: { tombstones?: string[] } = {}) => {
        const db = openSqlite(':memory:');
        const store = createSqliteReadModelStore(db);
        const recorded = events.map((e, i) => given({
          id: randomUUID(),
          type: e.type,
          data: e.data,
          streamId: e.streamId ?? 's',
          revision: i,
          position: BigInt(i + 1),
          metadata: { schemaVersion: 1 },
          recordedAt: '2026-01-01T00:00:00.000Z',
        }));
        const snapshot = async () => Object.fromEntries(
          (await store.find<{ id?: string }>(collection, { order: 'asc' })).map((d, i) => [d.id ?? String(i), d]),
        );
        await store.commit(await projectBatch(recorded, projectionsFor, store));
        const once = await snapshot();
        t.deepEqual(once, expected);
        await store.commit(await projectBatch(recorded, projectionsFor, store));
        for (const event of recorded) await store.commit(await projectBatch([event], projectionsFor, store));
        t.deepEqual(await snapshot(), once, 'redelivery changed the read model');
        for (const id of tombstones) {
          const stored = await store.getVersioned(collection, id);
          t.true(stored !== null && stored.doc === null && stored.position > 0n, `${collection}/${id} is no tombstone`);
        }
        db.close();
      },
    }),
  });
}
