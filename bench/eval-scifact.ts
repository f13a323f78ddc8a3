// Retrieval quality on SciFact through the search endpoint: nDCG@10 and Recall@100 per mode, on all
// queries and on each half (odd query ids, which rerank tuning looks at, and the even, held-out ones).
// `minilm_*` modes search a second knowledge base that embeds with the built-in local MiniLM
// (settings.embedding_model), beside the default one, in the same run. Needs ../shared/data/bench/scifact,
// and for the MiniLM modes its folder (npm run models:fetch; else they report {skipped}).
import { MINILM } from '../src/adapters/local/local-model-specs.ts';
import { findLocalModels } from '../src/adapters/local/model-folders.ts';
import { loadConfig } from '../src/config.ts';
import type { EvalContext } from './eval-context.ts';
import { type Api, json, settleAll, uploadTexts, withKbqa } from './kbqa-api.ts';
import { hasSciFact, loadSciFact, ndcgAt, recallAt, type SciFact, sciFactUpload } from './scifact.ts';
import { latencySummary, log, round } from './util.ts';

type Setting = { mode: string; rerank: boolean; minilm?: true };

const SETTINGS: Record<string, Setting> = {
  keyword: { mode: 'keyword', rerank: false },
  vector: { mode: 'vector', rerank: false },
  graph: { mode: 'graph', rerank: false },
  hybrid: { mode: 'hybrid', rerank: false },
  hybrid_rerank: { mode: 'hybrid', rerank: true },
  keyword_rerank: { mode: 'keyword', rerank: true },
  minilm_vector: { mode: 'vector', rerank: false, minilm: true },
  minilm_hybrid: { mode: 'hybrid', rerank: false, minilm: true },
  minilm_hybrid_rerank: { mode: 'hybrid', rerank: true, minilm: true },
};

export const SCIFACT_MODES = Object.keys(SETTINGS);

const GOALS: Record<string, number> = { keyword: 0.66, hybrid_rerank: 0.7 };
const CONCURRENCY = 4;

/** `ctx.parts` names the modes to measure. */
export async function runSciFact(ctx: EvalContext): Promise<object> {
  if (!hasSciFact()) return { skipped: 'needs ../shared/data/bench/scifact' };
  const modelsDir = loadConfig().modelsDir;
  const miniLmHere = findLocalModels(modelsDir).find((m) => m.spec.id === MINILM.id)?.state === 'installed';
  const asked = ctx.parts.length > 0 ? ctx.parts : SCIFACT_MODES;
  const names = asked.filter((name) => miniLmHere || !SETTINGS[name]!.minilm);
  const sf = loadSciFact();
  return withKbqa(
    'eval',
    async (api, pid) => {
      const ingestion: Record<string, object> = {};
      const modes: Record<string, unknown> = {};
      // One knowledge base per embedding model, each measured once ingested (the default's figures
      // stand even if MiniLM's slower ingestion does not finish). Hybrid fuses the recalls the
      // knowledge base enables: the defaults, vector and keyword.
      for (const [kbName, settings, minilm] of [['scifact-eval', {}, false], ['scifact-eval-minilm', { embedding_model: MINILM.id }, true]] as const) {
        const measured = names.filter((n) => Boolean(SETTINGS[n]!.minilm) === minilm);
        if (measured.length === 0) continue;
        const kb = await ingest(api, pid, sf, kbName, settings);
        ingestion[minilm ? 'minilm' : 'default'] = kb.ingestion;
        for (const name of measured) {
          const result = await measure(api, kb.id, sf, SETTINGS[name]!);
          modes[name] = GOALS[name] ? { ...result, goal_ndcg_at_10: GOALS[name], pass: result.ndcg_at_10 >= GOALS[name]! } : result;
          log(`eval: ${name} ${JSON.stringify(modes[name])}`);
        }
      }
      const skipped = asked.filter((n) => !names.includes(n));
      return {
        corpus: sf.corpus.length,
        ingestion,
        modes,
        ...(skipped.length > 0 && { skipped: { modes: skipped, why: `${MINILM.id} is not installed in ${modelsDir} (npm run models:fetch)` } }),
      };
    },
    { KBQA_MODELS_DIR: modelsDir },
  );
}

async function ingest(api: Api, pid: number, sf: SciFact, name: string, settings: { embedding_model?: string }) {
  const id = (await json(api, 'POST', '/v1/knowledge-bases', { name, settings })).id as string;
  const t0 = performance.now();
  await uploadTexts(api, id, sf.corpus.map(sciFactUpload));
  const { failed, peakRssMb } = await settleAll(api, id, sf.corpus.length, pid);
  const seconds = round((performance.now() - t0) / 1000, 1);
  log(`eval: ${name}: ${sf.corpus.length} abstracts ready in ${seconds} s (${failed.length} failed)`);
  return { id, ingestion: { embedding_model: settings.embedding_model ?? 'default', seconds, failed: failed.length, peak_rss_mb: peakRssMb } };
}

/** Odd query ids are the half rerank tuning looks at (bench/rerank-eval.ts); the even ones are held out. */
const halfOf = (id: string) => (Number(id) % 2 === 1 ? 'odd' : 'held_out_even');

async function measure(api: Api, kb: string, sf: SciFact, { mode, rerank }: Setting) {
  const rows: { half: string; ndcg: number; recall: number }[] = [];
  const latencies: number[] = [];
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < sf.queries.length) {
        const q = sf.queries[next++]!;
        const t0 = performance.now();
        const res = await json(api, 'POST', `/v1/knowledge-bases/${kb}/search`, { query: q.text, mode, rerank, top_k: 100 });
        latencies.push(performance.now() - t0);
        // A document may have several chunks: its first (best) one stands for it.
        const ranked = [...new Set((res.data as { source: string }[]).map((h) => h.source.replace(/\.txt$/, '')))];
        const relevant = sf.qrels.get(q.id)!;
        rows.push({ half: halfOf(q.id), ndcg: ndcgAt(ranked, relevant, 10), recall: recallAt(ranked, relevant, 100) });
      }
    }),
  );
  const mean = (xs: number[]) => round(xs.reduce((a, b) => a + b, 0) / xs.length, 4);
  const figures = (of: typeof rows) => ({ ndcg_at_10: mean(of.map((r) => r.ndcg)), recall_at_100: mean(of.map((r) => r.recall)), queries: of.length });
  const halves = Object.fromEntries(['odd', 'held_out_even'].map((h) => [h, figures(rows.filter((r) => r.half === h))]));
  const { p50_ms, p99_ms } = latencySummary(latencies);
  return { ...figures(rows), halves, latency: { p50_ms: round(p50_ms, 1), p99_ms: round(p99_ms, 1), concurrency: CONCURRENCY }, seconds: round((performance.now() - started) / 1000, 1) };
}
