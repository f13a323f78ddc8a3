import test from 'ava';
import { join } from 'node:path';
import { budgetedKeywordIndex, budgetedVectorIndex } from '../../src/adapters/sqlite/budgeted-indexes.ts';
import { openSqlite, type SqliteDatabase } from '../../src/adapters/sqlite/database.ts';
import { createIndexMemory, type IndexMemory } from '../../src/adapters/sqlite/index-memory.ts';
import { createSqliteKeywordIndex } from '../../src/adapters/sqlite/keyword-index.ts';
import { createSqliteVectorIndex } from '../../src/adapters/sqlite/vector-index.ts';
import { analyzer } from '../helpers/analyzer.ts';
import { tempDir } from '../helpers/temp.ts';
import { seededVectors } from '../helpers/vectors.ts';

const DIMS = 48;
const CHUNKS = 300;
const KBS = ['kb-a', 'kb-b', 'kb-c', 'kb-d'];
const WORDS = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango'.split(' ');

/** Both embedded indexes over one file, the raw ones (to see what they hold) and the budgeted ones. */
function open(db: SqliteDatabase, memory: IndexMemory) {
  const rawVectors = createSqliteVectorIndex(db);
  const rawKeywords = createSqliteKeywordIndex(db, { analyzer });
  const held = (kb: string) => rawVectors.footprint(kb) + rawKeywords.footprint(kb);
  return { memory, held, vectors: budgetedVectorIndex(rawVectors, memory), keywords: budgetedKeywordIndex(rawKeywords, memory) };
}
type Indexes = ReturnType<typeof open>;

function corpus(seed: number) {
  const { random, randomVector } = seededVectors(seed);
  const text = () => Array.from({ length: 12 }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
  return (kb: string, from: number, count: number) =>
    Array.from({ length: count }, (_, i) => ({ id: `${kb}-c${from + i}`, documentId: `${kb}-d${(from + i) % 7}`, values: randomVector(DIMS), text: text() }));
}

async function fill(ix: Indexes, kb: string, chunks: ReturnType<ReturnType<typeof corpus>>) {
  await ix.vectors.upsert(kb, chunks.map(({ id, documentId, values }) => ({ id, documentId, values })));
  await ix.keywords.upsert(kb, chunks.map(({ id, documentId, text }) => ({ id, documentId, text })));
}

const probe = seededVectors(99).randomVector(DIMS);
const answers = async (ix: Indexes, kb: string) => ({
  vectors: await ix.vectors.query(kb, probe, 10),
  filtered: await ix.vectors.query(kb, probe, 5, { documentIds: [`${kb}-d3`] }),
  keywords: await ix.keywords.query(kb, 'alpha tango kilo', 10),
  stats: await ix.keywords.termStats(kb, 'alpha tango'),
});

/** Four knowledge bases of 300 chunks, under a budget that holds about two of them. */
async function setUp() {
  const dir = tempDir();
  const path = join(dir.path, 'kbqa.db');
  const db = openSqlite(path);
  const make = corpus(7);
  const probeIx = open(db, createIndexMemory(0));
  for (const kb of KBS) await fill(probeIx, kb, make(kb, 0, CHUNKS));
  await answers(probeIx, KBS[0]!);
  const oneKb = probeIx.held(KBS[0]!);
  const ix = open(db, createIndexMemory(Math.floor(oneKb * 2.5)));
  return { dir, path, db, ix, make, oneKb, close: () => (db.close(), dir.remove()) };
}

test('past the budget the least recently used knowledge bases are unloaded, and answer the same once reloaded', async (t) => {
  const { ix, oneKb, close } = await setUp();
  t.true(oneKb > CHUNKS * 200, `a knowledge base of ${CHUNKS} chunks is estimated at ${oneKb} bytes`);
  const first: Record<string, unknown> = {};
  for (const kb of KBS) first[kb] = await answers(ix, kb);
  const stats = ix.memory.stats();
  t.true(stats.evictions >= 2, JSON.stringify(stats));
  t.true(stats.bytes <= stats.budgetBytes, JSON.stringify(stats));
  t.is(ix.held(KBS[0]!), 0, 'the coldest knowledge base holds nothing');
  t.is(ix.held(KBS[1]!), 0);
  t.true(ix.held(KBS[3]!) > 0, 'the last one used stays');
  for (const kb of KBS) t.deepEqual(await answers(ix, kb), first[kb], `${kb} after reload`);
  close();
});

test('writes to an unloaded knowledge base are kept, and reach it when it is reloaded', async (t) => {
  const { db, ix, make, close } = await setUp();
  for (const kb of KBS) await answers(ix, kb);
  const kb = KBS[0]!;
  t.is(ix.held(kb), 0);
  const added = make(kb, CHUNKS, 20).map((c) => ({ ...c, values: probe, text: 'zulu zulu yankee' }));
  // Writes and searches of every knowledge base interleaved, each unloading another.
  await Promise.all([
    fill(ix, kb, added),
    ix.vectors.deleteByDocument(kb, `${kb}-d3`),
    ix.keywords.deleteByDocument(kb, `${kb}-d3`),
    ...KBS.slice(1).map((other) => answers(ix, other)),
    fill(ix, KBS[2]!, make(KBS[2]!, CHUNKS, 5)),
  ]);
  for (const other of KBS.slice(1)) await answers(ix, other);
  t.is(ix.held(kb), 0);
  const after = await answers(ix, kb);
  t.true(after.vectors.slice(0, 10).every((hit) => added.some((c) => c.id === hit.id)), 'the added chunks are the nearest');
  t.deepEqual(after.filtered, []);
  t.is((await ix.keywords.query(kb, 'zulu yankee', 50)).length, 20);
  // What a fresh process reads from the file is what the budgeted indexes answer.
  t.deepEqual(await answers(open(db, createIndexMemory(0)), kb), after);
  // The delete started after the vector upsert (calls start in order): it took the new d3 chunks too.
  const d3 = Array.from({ length: CHUNKS + 20 }, (_, i) => i).filter((i) => i % 7 === 3).length;
  t.is(await ix.vectors.count(kb), CHUNKS + 20 - d3);
  close();
});

test('after a restart the knowledge bases load again from the file, under the budget', async (t) => {
  const { path, db, ix, dir } = await setUp();
  const before: Record<string, unknown> = {};
  for (const kb of KBS) before[kb] = await answers(ix, kb);
  db.close();
  const reopened = openSqlite(path);
  const again = open(reopened, createIndexMemory(ix.memory.stats().budgetBytes));
  for (const kb of [...KBS].reverse()) t.deepEqual(await answers(again, kb), before[kb]);
  t.true(again.memory.stats().evictions >= 2);
  reopened.close();
  dir.remove();
});

test('deleting a knowledge base takes it out of the budget', async (t) => {
  const { ix, close } = await setUp();
  await answers(ix, KBS[0]!);
  const { namespaces } = ix.memory.stats();
  await ix.vectors.deleteNamespace(KBS[0]!);
  await ix.keywords.deleteNamespace(KBS[0]!);
  t.is(ix.memory.stats().namespaces, namespaces - 1);
  t.deepEqual(await ix.vectors.query(KBS[0]!, probe, 5), []);
  close();
});
