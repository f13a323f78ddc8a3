// How to merge several knowledge bases' results: SciFact's abstracts split unevenly over two
// knowledge bases, searched together, against the same abstracts in one knowledge base.
// `node --import tsx bench/several-kbs.ts [documents]`; needs ../shared/data/bench/scifact.
import { mergeRankings } from '../src/domain/retrieval/merge.ts';
import { json, settleAll, uploadTexts, withKbqa, type Api } from './kbqa-api.ts';
import { hasSciFact, loadSciFact, ndcgAt, sciFactUpload } from './scifact.ts';
import { log, round, seededRandom } from './util.ts';

type Hit = { source: string; score: number };
const MODES = ['keyword', 'vector', 'hybrid'] as const;

async function main() {
  if (!hasSciFact()) return log('several-kbs: skipped, needs ../shared/data/bench/scifact');
  const size = Number(process.argv[2] ?? 2000);
  const { corpus, queries, qrels } = loadSciFact();
  const random = seededRandom(16);
  const relevant = new Set([...qrels.values()].flatMap((s) => [...s]));
  // Every judged abstract, then distractors up to `size`; a quarter go to the small knowledge base.
  const chosen = [...corpus.filter((d) => relevant.has(d.id)), ...corpus.filter((d) => !relevant.has(d.id)).sort(() => random() - 0.5)].slice(0, size);
  const small = new Set(chosen.filter(() => random() < 0.25).map((d) => d.id));
  await withKbqa('several-kbs', async (api, pid) => {
    const kb = async (name: string, docs: typeof chosen) => {
      const id = (await json(api, 'POST', '/v1/knowledge-bases', { name })).id as string;
      await uploadTexts(api, id, docs.map(sciFactUpload));
      await settleAll(api, id, docs.length, pid);
      return id;
    };
    const whole = await kb('whole', chosen);
    const a = await kb('small', chosen.filter((d) => small.has(d.id)));
    const b = await kb('large', chosen.filter((d) => !small.has(d.id)));
    log(`several-kbs: ${chosen.length} abstracts, ${small.size} in the small knowledge base, ${queries.length} queries`);
    const result: Record<string, Record<string, number>> = {};
    for (const mode of MODES) {
      const sums = { one_knowledge_base: 0, rank_fusion: 0, score_merge: 0, api: 0 };
      for (const q of queries) {
        const ids = (hits: Hit[]) => [...new Set(hits.map((h) => h.source.replace(/\.txt$/, '')))];
        const search = async (kbId: string): Promise<Hit[]> => (await searchOne(api, kbId, q.text, mode)).data;
        const [one, ha, hb, api2] = await Promise.all([
          search(whole),
          search(a),
          search(b),
          json(api, 'POST', '/v1/search', { query: q.text, mode, top_k: 10, knowledge_base_ids: [a, b] }),
        ]);
        const want = qrels.get(q.id)!;
        sums.one_knowledge_base += ndcgAt(ids(one), want);
        sums.rank_fusion += ndcgAt(ids(mergeRankings([ha, hb], false)), want);
        sums.score_merge += ndcgAt(ids(mergeRankings([ha, hb], true)), want);
        sums.api += ndcgAt(ids(api2.data), want);
      }
      result[mode] = Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, round(v / queries.length, 4)]));
      log(`several-kbs: ${mode} nDCG@10 ${JSON.stringify(result[mode])}`);
    }
    console.log(JSON.stringify(result, null, 2));
  });
}

const searchOne = (api: Api, kbId: string, query: string, mode: string) => json(api, 'POST', `/v1/knowledge-bases/${kbId}/search`, { query, mode, top_k: 10 });

await main();
