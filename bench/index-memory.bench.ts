import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { openSqlite } from '../src/adapters/sqlite/database.ts';
import { createSqliteKeywordIndex } from '../src/adapters/sqlite/keyword-index.ts';
import { createSqliteVectorIndex } from '../src/adapters/sqlite/vector-index.ts';
import { createTextAnalyzer } from '../src/adapters/text/analyzer.ts';
import { benchText, benchVectors, DIMS, kbName } from './index-memory-data.ts';
import { log, round, withTempDir } from './util.ts';

/**
 * Indexes under a memory budget (KBQA_INDEX_MEMORY_MB): many knowledge bases of synthetic
 * chunks (512-dimension vectors, 120-word texts), each searched once in a fresh process, with
 * the indexes as they were (no budget), with no limit, and with a budget that holds a quarter
 * of them. Reports resident memory added per 100k chunks, the estimate the budget counts, and
 * the latency of a search on a hot knowledge base against one that must be reloaded.
 * INDEX_MEMORY_BENCH_KBS (default 20) × INDEX_MEMORY_BENCH_CHUNKS (default 20,000).
 */
const KBS = Number(process.env.INDEX_MEMORY_BENCH_KBS ?? 20);
const CHUNKS = Number(process.env.INDEX_MEMORY_BENCH_CHUNKS ?? 20_000);
const BATCH = 1000;

type Run = { rss_added_mb: number; estimated_mb: number; least_recently_used: { p50_ms: number }; hot: { p50_ms: number } };

export async function indexMemoryBench() {
  return withTempDir('index-memory', async (dir) => {
    const path = join(dir, 'kbqa.db');
    await build(path);
    const measure = (budgetBytes: number): Run => {
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', new URL('./index-memory-child.ts', import.meta.url).pathname, path, String(budgetBytes), String(KBS)], {
        encoding: 'utf8',
      });
      if (child.status !== 0) throw new Error(`index-memory child failed: ${child.stderr}`);
      return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Run;
    };
    const per100k = (mb: number) => round((mb * 100_000) / (KBS * CHUNKS), 1);
    const before = measure(-1);
    log(`index_memory: before ${JSON.stringify(before)}`);
    const unlimited = measure(0);
    log(`index_memory: unlimited ${JSON.stringify(unlimited)}`);
    const budgetBytes = Math.floor((unlimited.estimated_mb * 1024 ** 2) / 4);
    const quarter = measure(budgetBytes);
    log(`index_memory: a quarter ${JSON.stringify(quarter)}`);
    return {
      knowledge_bases: KBS,
      chunks_each: CHUNKS,
      dims: DIMS,
      rss_per_100k_chunks_mb: { before: per100k(before.rss_added_mb), unlimited: per100k(unlimited.rss_added_mb) },
      estimate_per_100k_chunks_mb: per100k(unlimited.estimated_mb),
      before,
      unlimited,
      budget_a_quarter: quarter,
      pass: quarter.rss_added_mb < unlimited.rss_added_mb / 2,
    };
  });
}

async function build(path: string) {
  const db = openSqlite(path);
  const vectors = createSqliteVectorIndex(db);
  const keywords = createSqliteKeywordIndex(db, { analyzer: createTextAnalyzer() });
  const text = benchText(1);
  const started = performance.now();
  for (let k = 0; k < KBS; k++) {
    const kb = kbName(k);
    for (let from = 0; from < CHUNKS; from += BATCH) {
      const values = benchVectors(k * 1000 + from, Math.min(BATCH, CHUNKS - from), DIMS);
      const chunks = values.map((v, i) => ({ id: `chk_${kb}_${String(from + i).padStart(22, '0')}`, documentId: `doc_${kb}_${String((from + i) >> 5).padStart(22, '0')}`, v }));
      await vectors.upsert(kb, chunks.map(({ id, documentId, v }) => ({ id, documentId, values: v })));
      await keywords.upsert(kb, chunks.map(({ id, documentId }) => ({ id, documentId, text: text() })));
    }
    // Each knowledge base written is dropped from memory, as a restart would.
    vectors.unload(kb);
    keywords.unload(kb);
    log(`index_memory: built ${kb} (${CHUNKS} chunks), ${round((performance.now() - started) / 1000, 1)} s`);
  }
  db.close();
}
