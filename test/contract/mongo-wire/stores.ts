import type { TestFn } from 'ava';
import { randomBytes, randomUUID } from 'node:crypto';
import { access, readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { trustedEvent } from '../../../schemas/events/recorded.ts';
import { createInProcessBus } from '../../../src/adapters/local/in-process-bus.ts';
import { createGridFsBlobStore } from '../../../src/adapters/mongo/blob-store.ts';
import { createMongoCheckpointStore } from '../../../src/adapters/mongo/checkpoint-store.ts';
import { connectMongo, type MongoConnection } from '../../../src/adapters/mongo/connection.ts';
import { createMongoReadModelStore } from '../../../src/adapters/mongo/read-model-store.ts';
import { tempDir } from '../../helpers/temp.ts';
import { testBlobStore } from '../suites/blob-store.suite.ts';
import { testEventBus } from '../suites/event-bus.suite.ts';
import { testReadModels } from '../suites/read-models.suite.ts';
import { sqliteLog } from '../../helpers/sqlite-log.ts';

/** How a server's tests are titled: MongoDB's as they always were, FerretDB's by its own name. */
export type StoreTitles = { store: string; gridfs: string; bus: string };

/**
 * The read-model, checkpoint, GridFS and bus-checkpoint suites, and the MongoDB adapters' own
 * cases, against the server at `url` (anything that speaks MongoDB's wire protocol).
 */
export function testMongoWireStores(test: TestFn, url: string, names: StoreTitles) {
  /** A database of its own per fixture, dropped afterwards, so runs and tests never see each other's data. */
  const freshDatabase = async (): Promise<{ conn: MongoConnection; cleanup(): Promise<void> }> => {
    const base = await connectMongo(url);
    const conn = { ...base, db: base.client.db(`kbqa_test_${randomUUID().replaceAll('-', '').slice(0, 12)}`) };
    return {
      conn,
      cleanup: async () => {
        await conn.db.dropDatabase();
        await conn.close();
      },
    };
  };

  testReadModels(test, names.store, async () => {
    const { conn, cleanup } = await freshDatabase();
    return { readModels: createMongoReadModelStore(conn), checkpoints: createMongoCheckpointStore(conn), cleanup };
  });

  testBlobStore(test, names.gridfs, async () => {
    const { conn, cleanup } = await freshDatabase();
    return { blobs: createGridFsBlobStore(conn), cleanup };
  });

  testEventBus(test, names.bus, async () => {
    const { conn, cleanup } = await freshDatabase();
    const log = sqliteLog();
    const { store } = log;
    const checkpoints = createMongoCheckpointStore(conn);
    const bus = createInProcessBus({ store, checkpoints, backoff: { attempts: 3, baseMs: 1, maxMs: 5 } });
    return {
      store,
      bus,
      checkpoints,
      cleanup: async () => {
        await log.close();
        await cleanup();
      },
    };
  });

  test(`${names.store} › positions past 2^53 are kept exactly, and still guard`, async (t) => {
    const { conn, cleanup } = await freshDatabase();
    try {
      const readModels = createMongoReadModelStore(conn);
      const checkpoints = createMongoCheckpointStore(conn);
      const high = 2n ** 60n + 1n;
      await readModels.commit([{ op: 'put', collection: 'c', id: 'a', doc: { v: 'high' }, position: high + 1n }], { group: 'g', position: high + 1n });
      await readModels.commit([{ op: 'put', collection: 'c', id: 'a', doc: { v: 'lower' }, position: high }], { group: 'g', position: high });
      t.deepEqual(await readModels.getVersioned('c', 'a'), { doc: { v: 'high' }, position: high + 1n });
      t.is(await checkpoints.load('g'), high + 1n);
    } finally {
      await cleanup();
    }
  });

  test(`${names.store} › a parked event comes back exactly, once however often it is parked`, async (t) => {
    const { conn, cleanup } = await freshDatabase();
    try {
      const checkpoints = createMongoCheckpointStore(conn);
      const entry = {
        group: 'g',
        // Stored as it is, whatever its data: the store neither parses nor checks it.
        event: trustedEvent({
          id: 'e1',
          type: 'DocumentParsed',
          streamId: 'document-d1',
          revision: 2,
          position: 2n ** 55n + 3n,
          data: { document_id: 'd1', pages: [1, 2.5], note: null },
          metadata: { schemaVersion: 1, correlationId: 'c1' },
          recordedAt: '2026-01-01T00:00:00.000Z',
        }),
        error: 'PermanentError: no',
        parkedAt: '2026-01-01T00:00:01.000Z',
      };
      await checkpoints.park(entry);
      await checkpoints.park({ ...entry, error: 'again', parkedAt: '2026-01-01T00:00:02.000Z' });
      t.deepEqual(await checkpoints.parked('g'), [entry]);
      t.deepEqual(await checkpoints.parked('other'), []);
    } finally {
      await cleanup();
    }
  });

  test(`${names.gridfs} › a refused upload leaves no file and no chunk behind`, async (t) => {
    const { conn, cleanup } = await freshDatabase();
    try {
      const blobs = createGridFsBlobStore(conn, { bucketName: 'refused' });
      // Several GridFS chunks (255 KB each) are stored before the limit trips.
      await t.throwsAsync(blobs.put(Readable.from([randomBytes(300_000), randomBytes(300_000), randomBytes(300_000)]), { maxBytes: 800_000 }));
      t.is(await conn.db.collection('refused.files').countDocuments(), 0);
      t.is(await conn.db.collection('refused.chunks').countDocuments(), 0);
    } finally {
      await cleanup();
    }
  });

  test(`${names.gridfs} › localPath copies the bytes to a file that release removes`, async (t) => {
    const { conn, cleanup } = await freshDatabase();
    const dir = tempDir();
    try {
      const blobs = createGridFsBlobStore(conn, { tempDir: dir.path });
      const bytes = randomBytes(400_000);
      const { sha256 } = await blobs.put(Readable.from([bytes]));
      const local = await blobs.localPath(sha256);
      t.true((await readFile(local!.path)).equals(bytes));
      await local!.release();
      await t.throwsAsync(access(local!.path));
      t.is(await blobs.localPath('0'.repeat(64)), null);
    } finally {
      dir.remove();
      await cleanup();
    }
  });
}
