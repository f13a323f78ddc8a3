import test from 'ava';
import { join } from 'node:path';
import { eventCatalog, type EventType } from '../../schemas/events/index.ts';
import { trustedEvent } from '../../schemas/events/recorded.ts';
import { topicsForEventTypes } from '../../schemas/topics.ts';
import { allProjections } from '../../src/capabilities/index.ts';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { createSqliteReadModelStore } from '../../src/adapters/sqlite/read-model-store.ts';
import { streamPositionWatch } from '../../src/app/projection-watch.ts';
import { projectorGroup } from '../../src/app/projector.ts';
import type { RecordedEvent } from '../../src/ports/event-store.ts';
import { tempDir } from '../helpers/temp.ts';

const event = (streamId: string, position: bigint, type = 'SomethingNoProjectionUses'): RecordedEvent =>
  trustedEvent({ id: `e${position}`, type, streamId, revision: 0, position, data: {}, metadata: { schemaVersion: 1 }, recordedAt: '2026-01-01T00:00:00.000Z' });

function fixture() {
  const dir = tempDir();
  const db = openSqlite(join(dir.path, 'kbqa.db'));
  return { readModels: createSqliteReadModelStore(db), cleanup: () => (db.close(), dir.remove()) };
}

test('a projector tracking streams takes every event type but chunk batches and records each stream’s last position', async (t) => {
  const { readModels, cleanup } = fixture();
  try {
    const group = projectorGroup(allProjections, readModels, { trackStreams: true });
    const types = (Object.keys(eventCatalog) as EventType[]).filter((type) => group.eventTypes?.has(type));
    t.deepEqual(types, (Object.keys(eventCatalog) as EventType[]).filter((type) => type !== 'DocumentChunksExtracted'), 'a stream whose last event no projection uses must still report it');
    t.false(topicsForEventTypes(group.eventTypes!).includes('kbqa.document-chunks'), 'so it does not read the chunk topic');
    // Out of global order across streams, as two Kafka partitions deliver them.
    await group.handle([event('chat-1', 7n), event('document-9', 3n)]);
    await group.handle([event('document-9', 5n), event('chat-1', 6n)]);
    t.is((await readModels.getVersioned('stream_positions', 'chat-1'))?.position, 7n, 'an older event never moves a stream back');
    t.is((await readModels.getVersioned('stream_positions', 'document-9'))?.position, 5n);
    t.not(projectorGroup(allProjections, readModels).eventTypes, undefined, 'the in-process projector keeps its type filter');
  } finally {
    cleanup();
  }
});

test('the stream watch resolves once every written stream is projected, and names the one that was not', async (t) => {
  const { readModels, cleanup } = fixture();
  try {
    const group = projectorGroup(allProjections, readModels, { trackStreams: true });
    const watch = streamPositionWatch(readModels, 2);
    const waiting = watch.waitFor([{ streamId: 'a-1', position: 4n }, { streamId: 'b-1', position: 9n }], 2000);
    await group.handle([event('a-1', 4n)]);
    await group.handle([event('b-1', 9n)]);
    await t.notThrowsAsync(waiting);
    await t.notThrowsAsync(watch.waitFor([{ streamId: 'never-1', position: 0n }], 10), 'nothing appended: nothing to wait for');
    await t.throwsAsync(watch.waitFor([{ streamId: 'a-1', position: 5n }], 30), { message: /did not apply a-1 up to position 5 within 30 ms/ });
  } finally {
    cleanup();
  }
});
