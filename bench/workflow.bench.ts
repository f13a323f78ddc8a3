import { json, settleAll, uploadTexts, withKbqa } from './kbqa-api.ts';
import { benchCorpus, CHUNK_TOKENS, CHUNKS_PER_DOCUMENT, post, throughput, timed } from './search.bench.ts';
import { latencySummary, log } from './util.ts';

const CHUNKS = 10_000;
const SAMPLES = 300;
const CLIENTS = 16;
const THROUGHPUT_S = 10;
const TARGET_P50_MS = 40;

/** The knowledge-qa template with the offline model over 10k chunks: blocking runs through HTTP, one client, then 16. */
export async function workflowBench() {
  const { docs, queries } = benchCorpus(Math.ceil(CHUNKS / CHUNKS_PER_DOCUMENT));
  return withKbqa('workflow', async (api, pid) => {
    const kb = (await json(api, 'POST', '/v1/knowledge-bases', { name: 'bench', settings: { chunking: { max_tokens: CHUNK_TOKENS, overlap_tokens: 0 } } })).id;
    await uploadTexts(api, kb, docs, 8);
    await settleAll(api, kb, docs.length, pid);
    const { chunk_count: chunks } = await json(api, 'GET', `/v1/knowledge-bases/${kb}`);
    const wf = (await json(api, 'POST', '/v1/workflows', { name: 'qa', template: 'knowledge-qa', knowledge_base_id: kb })).id;
    const runOnce = async (i: number) => {
      const run = JSON.parse(await post(api, `/v1/workflows/${wf}/run`, { inputs: { question: queries[i % queries.length] } })) as { status: string };
      if (run.status !== 'succeeded') throw new Error(`run ${run.status}`);
    };
    for (let i = 0; i < 30; i++) await runOnce(i);
    const ms: number[] = [];
    for (let i = 0; i < SAMPLES; i++) ms.push(await timed(() => runOnce(i + 30)));
    const blocking = latencySummary(ms);
    log(`workflow: ${chunks} chunks, blocking run ${JSON.stringify(blocking)}`);
    const load = await throughput(CLIENTS, THROUGHPUT_S, runOnce);
    log(`workflow: ${CLIENTS} clients: ${load.requests_per_s} runs/s`);
    return {
      chunks,
      blocking_run: blocking,
      [`runs_at_${CLIENTS}_clients`]: load,
      target_p50_ms: TARGET_P50_MS,
      pass: chunks >= 0.95 * CHUNKS && blocking.p50_ms <= TARGET_P50_MS && load.errors === 0,
    };
  });
}
