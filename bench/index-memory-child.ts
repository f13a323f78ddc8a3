// One measurement of bench/index-memory.bench.ts in a process of its own, so that resident memory
// starts clean: `node --import tsx --expose-gc bench/index-memory-child.ts <db> <budget bytes> <kbs>`;
// budget 0: no limit; -1: the indexes as they were before the budget (no wrapper).
import { budgetedKeywordIndex, budgetedVectorIndex } from '../src/adapters/sqlite/budgeted-indexes.ts';
import { openSqlite } from '../src/adapters/sqlite/database.ts';
import { createIndexMemory } from '../src/adapters/sqlite/index-memory.ts';
import { createSqliteKeywordIndex } from '../src/adapters/sqlite/keyword-index.ts';
import { createSqliteVectorIndex } from '../src/adapters/sqlite/vector-index.ts';
import { createTextAnalyzer } from '../src/adapters/text/analyzer.ts';
import { latencySummary, round } from './util.ts';
import { benchText, benchVectors, DIMS, kbName } from './index-memory-data.ts';

const [path, budgetArg, kbArg] = process.argv.slice(2) as [string, string, string];
const budget = Number(budgetArg);
const kbCount = Number(kbArg);
const gc = (globalThis as { gc?: () => void }).gc!;
const settle = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 50));
  }
};
const mb = (bytes: number) => round(bytes / 1024 ** 2, 1);

const db = openSqlite(path);
const memory = createIndexMemory(Math.max(0, budget));
const rawVectors = createSqliteVectorIndex(db);
const rawKeywords = createSqliteKeywordIndex(db, { analyzer: createTextAnalyzer() });
const vectors = budget < 0 ? rawVectors : budgetedVectorIndex(rawVectors, memory);
const keywords = budget < 0 ? rawKeywords : budgetedKeywordIndex(rawKeywords, memory);
const query = benchVectors(5, 1, DIMS)[0]!;
const text = benchText(6)().split(' ').slice(0, 8).join(' ');
const parts = { vectors: [] as number[], keywords: [] as number[] };
const search = async (kb: string) => {
  const started = performance.now();
  await vectors.query(kb, query, 10);
  const between = performance.now();
  await keywords.query(kb, text, 10);
  parts.vectors.push(between - started);
  parts.keywords.push(performance.now() - between);
  return performance.now() - started;
};

await search(kbName(0)); // code warm, so that the first figures are not compilation
await settle();
const before = process.memoryUsage().rss;
const firstUse: number[] = [];
for (let k = 0; k < kbCount; k++) firstUse.push(await search(kbName(k)));
await settle();
const loadedRss = process.memoryUsage().rss - before;
let estimated = 0;
for (let k = 0; k < kbCount; k++) estimated += rawVectors.footprint(kbName(k)) + rawKeywords.footprint(kbName(k));
const loaded = Array.from({ length: kbCount }, (_, k) => kbName(k)).filter((kb) => rawVectors.footprint(kb) > 0).length;
// Hot: the last knowledge base used, again. Cold: the least recently used one, unloaded under a
// budget that holds fewer than all (each such search unloads the next one in turn).
const hot: number[] = [];
for (let i = 0; i < 20; i++) hot.push(await search(kbName(kbCount - 1)));
const cold: number[] = [];
parts.vectors.length = parts.keywords.length = 0;
for (let k = 0; k < Math.min(kbCount, 8); k++) cold.push(await search(kbName(k)));
await settle();
console.log(
  JSON.stringify({
    budget_mb: budget < 0 ? 'none (no wrapper, as before)' : budget === 0 ? 'unlimited' : mb(budget),
    rss_added_mb: mb(loadedRss),
    estimated_mb: mb(estimated),
    knowledge_bases_loaded: loaded,
    evictions: memory.stats().evictions,
    rss_after_searches_mb: mb(process.memoryUsage().rss - before),
    first_use: latencySummary(firstUse),
    hot: latencySummary(hot),
    least_recently_used: { ...latencySummary(cold), vectors_p50_ms: latencySummary(parts.vectors).p50_ms, keywords_p50_ms: latencySummary(parts.keywords).p50_ms },
  }),
);
db.close();
