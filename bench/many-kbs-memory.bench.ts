import { readFileSync } from 'node:fs';
import { type Api, json, settleAll, uploadTexts } from './kbqa-api.ts';
import { groupRssMb, startKbqa, stopChild, waitFor } from './server-process.ts';
import { freePort, log, seededRandom, withTempDir } from './util.ts';

const KBS = Number(process.env.MANY_KBS ?? 20);
const DOCS = Number(process.env.MANY_KBS_DOCS ?? 60);
const WORDS = 1500;
const BUDGET_MB = 48;
const ADMIN_KEY = 'kbqa-bench-many-kbs-memory-admin-key-000000';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A server under a small index budget (KBQA_INDEX_MEMORY_MB=48) with many knowledge bases, as a
 * user with many small teams runs it: MANY_KBS (20) knowledge bases of MANY_KBS_DOCS (60)
 * documents of 1,500 words each are ingested, then the server restarts and, idle, is measured;
 * then every knowledge base is searched in each mode and the growth measured. Resident memory of
 * the server process (its children are parser and query processes that end when idle) and of the
 * process group. Goals (#36 item 3): idle ≤ 200 MB, growth ≤ 100 MB.
 */
export async function manyKbsMemoryBench() {
  return withTempDir('many-kbs', async (dataDir) => {
    const env = { KBQA_INDEX_MEMORY_MB: String(BUDGET_MB), KBQA_ADMIN_KEY: ADMIN_KEY, KBQA_RATE_LIMIT_PER_MINUTE: '0' };
    const random = seededRandom(36);
    const vocabulary = Array.from({ length: 20_000 }, () => word(random));
    const kbs = await serving(dataDir, env, (api, pid) => ingest(api, pid, random, vocabulary));
    return serving(dataDir, env, async (api, pid) => {
      // V8 gives memory back after about 30 s without work (idle_memory).
      await sleep(40_000);
      const idle = { main: rssMb(pid), group: groupRssMb(pid) };
      for (const mode of ['vector', 'keyword', 'hybrid', 'graph']) {
        for (const kb of kbs) await json(api, 'POST', `/v1/knowledge-bases/${kb}/search`, { query: prose(random, vocabulary, 8), mode, top_k: 10 });
      }
      const searched = { main: rssMb(pid), group: groupRssMb(pid) };
      await sleep(40_000);
      const later = { main: rssMb(pid), group: groupRssMb(pid) };
      return {
        knowledge_bases: KBS,
        documents_each: DOCS,
        words_each: WORDS,
        index_memory_mb: BUDGET_MB,
        restarted_idle_mb: idle,
        after_searching_all_mb: searched,
        idle_40s_later_mb: later,
        growth_mb: searched.main - idle.main,
        goals: { idle_mb: 200, growth_mb: 100 },
        pass: idle.main <= 200 && searched.main - idle.main <= 100,
      };
    });
  });
}

export async function serving<T>(dataDir: string, env: Record<string, string>, fn: (api: Api, pid: number) => Promise<T>): Promise<T> {
  // KBQA_BENCH_ROOT serves another checkout (an older commit, for a before/after on one host).
  const child = await startKbqa(dataDir, await freePort(), env, process.env.KBQA_BENCH_ROOT);
  try {
    await waitFor(child, `${child.base}/readyz`);
    return await fn({ base: child.base, headers: { authorization: `Bearer ${ADMIN_KEY}` } }, child.proc.pid!);
  } finally {
    await stopChild(child);
  }
}

export async function ingest(api: Api, pid: number, random: () => number, vocabulary: string[]): Promise<string[]> {
  const kbs: string[] = [];
  for (let k = 0; k < KBS; k++) {
    const id = (await json(api, 'POST', '/v1/knowledge-bases', { name: `team ${k}` })).id as string;
    const docs = Array.from({ length: DOCS }, (_, d) => ({ name: `doc-${k}-${d}.txt`, text: prose(random, vocabulary, WORDS) }));
    await uploadTexts(api, id, docs, 8);
    await settleAll(api, id, DOCS, pid);
    kbs.push(id);
    log(`many_kbs_memory: ${k + 1}/${KBS} knowledge bases ready`);
  }
  return kbs;
}

export function word(random: () => number): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  return Array.from({ length: 4 + Math.floor(random() * 7) }, () => letters[Math.floor(random() * 26)]).join('');
}

/** Words drawn with a Zipf-like skew, in sentences: a keyword index with common and rare terms. */
export function prose(random: () => number, vocabulary: string[], words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    out.push(vocabulary[Math.floor(vocabulary.length * random() ** 3)]!);
    if (i % 14 === 13) out.push('.\n');
  }
  return out.join(' ');
}

/** The server process's own resident memory, without its children. */
export function rssMb(pid: number): number {
  return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
}
