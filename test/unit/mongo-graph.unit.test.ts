import test from 'ava';
import { join } from 'node:path';
import {
  entityCountPipeline,
  mentionCountPipeline,
  mentionDoc,
  mentionsPipeline,
  NEIGHBOUR_SAMPLE,
  neighboursPipeline,
  scoreMentions,
} from '../../src/adapters/mongo/graph-pipelines.ts';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { createSqliteEntityGraph } from '../../src/adapters/sqlite/entity-graph.ts';
import { tempDir } from '../helpers/temp.ts';

/** The Mongo entity graph without a server: its documents and pipelines, and scoring equal to the embedded graph's. */

test('graph documents hold each entity once', (t) => {
  t.deepEqual(mentionDoc('kb', { chunkId: 'c1', documentId: 'd1', entities: ['a', 'b', 'a'] }), {
    namespace: 'kb',
    chunkId: 'c1',
    documentId: 'd1',
    entities: ['a', 'b'],
  });
});

test('graph pipelines sample and cap as the embedded graph does', (t) => {
  const neighbours = neighboursPipeline('kb', 'tam', 5);
  t.deepEqual(neighbours.slice(0, 3), [{ $match: { namespace: 'kb', entities: 'tam' } }, { $sort: { chunkId: 1 } }, { $limit: NEIGHBOUR_SAMPLE }]);
  t.deepEqual(neighbours.slice(3), [
    { $unwind: '$entities' },
    { $match: { entities: { $ne: 'tam' } } },
    { $group: { _id: '$entities', weight: { $sum: 1 } } },
    { $sort: { weight: -1, _id: 1 } },
    { $limit: 5 },
    { $project: { _id: 0, entity: '$_id', weight: 1 } },
  ]);
  t.false(neighboursPipeline('kb', 'tam', -1).some((s) => '$limit' in s && s.$limit === -1), 'a negative limit is no limit, as in SQLite');
  t.deepEqual(mentionsPipeline('kb', 'tam').slice(2), [{ $limit: 5000 }, { $project: { _id: 0, chunkId: 1, documentId: 1 } }]);
  t.deepEqual(mentionCountPipeline('kb', 'tam', 2), [{ $match: { namespace: 'kb', entities: 'tam' } }, { $limit: 2 }, { $count: 'n' }]);
  t.deepEqual(entityCountPipeline('kb'), [{ $match: { namespace: 'kb' } }, { $unwind: '$entities' }, { $group: { _id: '$entities' } }, { $count: 'n' }]);
});

test('scoring mentions equals the embedded graph', async (t) => {
  const dir = tempDir();
  const db = openSqlite(join(dir.path, 'kbqa.db'));
  try {
    const sqlite = createSqliteEntityGraph(db);
    const chunks = [
      { chunkId: 'c1', documentId: 'd1', entities: ['tam', 'fred davis'] },
      { chunkId: 'c2', documentId: 'd1', entities: ['tam', 'perceived usefulness'] },
      { chunkId: 'c3', documentId: 'd2', entities: ['tam', 'fred davis', 'perceived usefulness'] },
      { chunkId: 'c4', documentId: 'd2', entities: ['mit'] },
    ];
    await sqlite.upsert('kb', chunks);
    // What mentionsPipeline returns: the chunks naming the entity, by chunk id.
    const mentioning = (entity: string) => chunks.filter((c) => c.entities.includes(entity)).sort((a, b) => (a.chunkId < b.chunkId ? -1 : 1));
    const cases: [Map<string, number>, number, string[]?][] = [
      [new Map([['fred davis', 1], ['perceived usefulness', 0.5]]), 10],
      [new Map([['tam', 1], ['mit', 0.25]]), 2],
      [new Map([['tam', 1]]), 10, ['d2']],
      [new Map([['tam', 1]]), 10, []],
      [new Map([['nobody', 1]]), 10],
    ];
    for (const [entities, topK, documentIds] of cases) {
      const perEntity = [...entities].map(([entity, weight]) => ({ weight, mentions: mentioning(entity) }));
      const filter = documentIds ? { documentIds } : undefined;
      t.deepEqual(scoreMentions(perEntity, topK, documentIds), await sqlite.chunksMentioning('kb', entities, topK, filter));
    }
  } finally {
    db.close();
    dir.remove();
  }
});
