// Retrieval quality on SciFact through the search endpoint: nDCG@10 and Recall@100 per mode.
// Needs ../shared/data/bench/scifact.
import type { EvalContext } from './eval-context.ts';
import { json, settleAll, uploadTexts, withKbqa } from './kbqa-api.ts';
import { hasSciFact, loadSciFact, ndcgAt, recallAt, sciFactUpload } from './scifact.ts';
import { log, round } from './util.ts';

type Setting = { mode: string; rerank: boolean };

const SETTINGS: Record<string, Setting> = {
  keyword: { mode: 'keyword', rerank: false },
  vector: { mode: 'vector', rerank: false },
  graph: { mode: 'graph', rerank: false },
  hybrid: { mode: 'hybrid', rerank: false },
  hybrid_rerank: { mode: 'hybrid', rerank: true },
  keyword_rerank: { mode: 'keyword', rerank: true },
};

export const SCIFACT_MODES = Object.keys(SETTINGS);

const GOALS: Record<string, number> = { keyword: 0.66, hybrid_rerank: 0.7 };
const CONCURRENCY = 4;

/** `ctx.parts` names the modes to measure. */
export async function runSciFact(ctx: EvalContext): Promise<object> {
  if (!hasSciFact()) return { skipped: 'needs ../shared/data/bench/scifact' };
  const names = ctx.parts.length > 0 ? ctx.parts : SCIFACT_MODES;
  const { corpus, queries, qrels } = loadSciFact();
  return withKbqa('eval', async (api, pid) => {
    // Hybrid fuses the recalls the knowledge base enables: the defaults, vector and keyword.
    const kb = (await json(api, 'POST', '/v1/knowledge-bases', { name: 'scifact-eval' })).id;
    const t0 = performance.now();
    await uploadTexts(api, kb, corpus.map(sciFactUpload));
    const { failed } = await settleAll(api, kb, corpus.length, pid);
    log(`eval: ${corpus.length} abstracts ready in ${round((performance.now() - t0) / 1000, 1)} s (${failed.length} failed)`);
    const modes: Record<string, unknown> = {};
    for (const name of names) {
      const { mode, rerank } = SETTINGS[name]!;
      const ndcg: number[] = [];
      const recall: number[] = [];
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < queries.length) {
            const q = queries[next++]!;
            const res = await json(api, 'POST', `/v1/knowledge-bases/${kb}/search`, { query: q.text, mode, rerank, top_k: 100 });
            // A document may have several chunks: its first (best) one stands for it.
            const ranked = [...new Set((res.data as { source: string }[]).map((h) => h.source.replace(/\.txt$/, '')))];
            const relevant = qrels.get(q.id)!;
            ndcg.push(ndcgAt(ranked, relevant, 10));
            recall.push(recallAt(ranked, relevant, 100));
          }
        }),
      );
      const mean = (xs: number[]) => round(xs.reduce((a, b) => a + b, 0) / xs.length, 4);
      const result = { ndcg_at_10: mean(ndcg), recall_at_100: mean(recall), queries: queries.length, seconds: round((performance.now() - started) / 1000, 1) };
      modes[name] = GOALS[name] ? { ...result, goal_ndcg_at_10: GOALS[name], pass: result.ndcg_at_10 >= GOALS[name]! } : result;
      log(`eval: ${name} ${JSON.stringify(modes[name])}`);
    }
    return { corpus: corpus.length, failed: failed.length, modes };
  });
}
