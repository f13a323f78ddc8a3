import test from 'ava';
import { join } from 'node:path';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { createSqliteKeywordIndex } from '../../src/adapters/sqlite/keyword-index.ts';
import { createSqlitePassageStore } from '../../src/adapters/sqlite/passage-store.ts';
import { createSqliteReadModelStore } from '../../src/adapters/sqlite/read-model-store.ts';
import { reanalyseKeywords } from '../../src/app/keyword-reanalysis.ts';
import type { Analyzer } from '../../src/ports/analyzer.ts';
import type { Passage } from '../../src/ports/passage-store.ts';
import { analyzer } from '../helpers/analyzer.ts';
import { tempDir } from '../helpers/temp.ts';

/** An analyzer of an older version whose terms today's queries never meet. */
const older: Analyzer = { ...analyzer, version: 'text-0', terms: (text, language) => analyzer.terms(text, language).map((term) => `old${term}`) };

const passage = (chunkId: string, documentId: string, index: number, text: string): Passage => ({
  chunkId, documentId, documentName: `${documentId}.txt`, index, page: 1, headingPath: ['Heading'], text, charStart: 0, charEnd: text.length, tokenCount: 5,
});

const PASSAGES = [
  passage('c1', 'd1', 0, 'Statins lower cholesterol in older adults.'),
  passage('c2', 'd1', 1, 'Vitamin D deficiency and bone fractures.'),
  passage('c3', 'd2', 0, 'Solar panels convert sunlight into electricity.'),
];

async function oldDataDir(path: string, options: { stamp: boolean }) {
  const db = openSqlite(path);
  await createSqlitePassageStore(db).upsert('kb', PASSAGES);
  const docs = PASSAGES.map((p) => ({ id: p.chunkId, documentId: p.documentId, text: `Heading\n${p.text}` }));
  await createSqliteKeywordIndex(db, { analyzer: older }).upsert('kb', docs);
  if (!options.stamp) db.exec('DROP TABLE keyword_meta');
  db.close();
}

for (const stamp of [true, false]) {
  test(`keyword terms of ${stamp ? 'another analyzer version' : 'a data directory without a version stamp'} are analysed again from the passages on open`, async (t) => {
    const dir = tempDir();
    const path = join(dir.path, 'kbqa.db');
    await oldDataDir(path, { stamp });
    let db = openSqlite(path);
    let keywords = createSqliteKeywordIndex(db, { analyzer });
    t.deepEqual(await keywords.query('kb', 'cholesterol', 10), [], 'stale terms miss');
    t.deepEqual(await keywords.stale(null, 10), [{ namespace: 'kb', documentId: 'd1' }, { namespace: 'kb', documentId: 'd2' }]);
    t.deepEqual(await keywords.stale({ namespace: 'kb', documentId: 'd1' }, 10), [{ namespace: 'kb', documentId: 'd2' }]);

    const report = await reanalyseKeywords({ keywords, passages: createSqlitePassageStore(db), readModels: createSqliteReadModelStore(db), pageSize: 1 });
    t.deepEqual(report, { documents: 2, chunks: 3 });
    t.deepEqual((await keywords.query('kb', 'cholesterol', 10)).map((m) => m.id), ['c1']);
    t.deepEqual((await keywords.query('kb', 'heading fractures', 10)).map((m) => m.id)[0], 'c2', 'heading paths are indexed as before');
    t.is(await keywords.count('kb'), 3);
    db.close();

    db = openSqlite(path);
    keywords = createSqliteKeywordIndex(db, { analyzer });
    t.deepEqual(await keywords.stale(null, 10), [], 'the stamp survives reopening');
    t.is(await reanalyseKeywords({ keywords, passages: createSqlitePassageStore(db), readModels: createSqliteReadModelStore(db) }), null);
    t.deepEqual((await keywords.query('kb', 'sunlight', 10)).map((m) => m.id), ['c3']);
    db.close();
    dir.remove();
  });
}
