import { type Api, json, settleAll, uploadTexts, withKbqa } from './kbqa-api.ts';
import { hasSciFact, loadSciFact } from './scifact.ts';
import { groupCpuSeconds } from './server-process.ts';
import { hasWrk, wrkThroughput } from './wrk-load.ts';
import { latencySummary, log, round } from './util.ts';

/** 100k chunks by default; SEARCH_BENCH_CHUNKS shrinks it for a quick look. */
const TARGET_CHUNKS = Number(process.env.SEARCH_BENCH_CHUNKS ?? 100_000);
export const CHUNKS_PER_DOCUMENT = 100;
export const CHUNK_TOKENS = 128;
const SAMPLES = 400;
const CONCURRENT_CLIENTS = 32;
const THROUGHPUT_S = 10;
const WARM_UP_S = 4;
const TARGETS = { search_p50_ms: 10, search_p99_ms: 30, chat_p50_ms: 25, first_byte_p50_ms: 15 };

/** mulberry32: the same corpus on every run. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Documents of real scientific prose: SciFact's sentences dealt out at random, so every chunk
 * is a distinct, realistic passage (about 100 words at 128 tokens a chunk). Without SciFact,
 * sentences of words drawn from a Zipf-like vocabulary.
 */
export function benchCorpus(documents: number): { docs: { name: string; text: string }[]; queries: string[] } {
  const random = prng(42);
  let sentences: string[];
  let queries: string[];
  if (hasSciFact()) {
    const sf = loadSciFact();
    sentences = sf.corpus.flatMap((d) => `${d.title}. ${d.text}`.split(/(?<=[.!?])\s+(?=[A-Z])/)).filter((s) => s.length > 20);
    queries = sf.queries.map((q) => q.text);
  } else {
    const vocabulary = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}`);
    const word = () => vocabulary[Math.floor(vocabulary.length * random() ** 3)]!;
    sentences = Array.from({ length: 50_000 }, () => `${Array.from({ length: 8 + Math.floor(random() * 20) }, word).join(' ')}.`);
    queries = Array.from({ length: 800 }, () => Array.from({ length: 10 }, word).join(' '));
  }
  // SciFact prose measured at about half a word per estimated token (long words, numbers, symbols).
  const wordsPerDocument = CHUNKS_PER_DOCUMENT * CHUNK_TOKENS * 0.5;
  const docs = Array.from({ length: documents }, (_, i) => {
    const parts: string[] = [];
    let words = 0;
    while (words < wordsPerDocument) {
      const s = sentences[Math.floor(random() * sentences.length)]!;
      parts.push(s);
      words += s.split(' ').length;
    }
    return { name: `bench-${String(i).padStart(5, '0')}.txt`, text: parts.join(' ') };
  });
  return { docs, queries };
}

export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

export async function post(api: Api, path: string, body: unknown) {
  const res = await fetch(api.base + path, { method: 'POST', headers: { ...api.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${text.slice(0, 300)}`);
  return text;
}

/** Milliseconds until the first byte of a streamed chat's body arrives (headers included). */
async function firstByte(api: Api, body: unknown): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${api.base}/v1/chat/completions`, { method: 'POST', headers: { ...api.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const reader = res.body!.getReader();
  await reader.read();
  const ms = performance.now() - t0;
  while (!(await reader.read()).done);
  return ms;
}

/** Requests per second with `clients` concurrent keep-alive clients for `seconds`. */
export async function throughput(clients: number, seconds: number, request: (i: number) => Promise<unknown>) {
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  let errors = 0;
  const latencies: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = c; performance.now() < deadline; i += clients) {
        const start = performance.now();
        try {
          await request(i);
          done++;
          latencies.push(performance.now() - start);
        } catch {
          errors++;
        }
      }
    }),
  );
  return { requests_per_s: round(done / ((performance.now() - t0) / 1000)), errors, ...latencySummary(latencies) };
}

/** Search and chat over HTTP on one knowledge base of 100k chunks: latency one at a time, then throughput at 32 clients, twice (the second pair sustained). */
export async function searchChatBench() {
  const documents = Math.ceil(TARGET_CHUNKS / CHUNKS_PER_DOCUMENT);
  const { docs, queries } = benchCorpus(documents);
  return withKbqa('search', async (api, pid) => {
    const kb = (await json(api, 'POST', '/v1/knowledge-bases', { name: 'bench', settings: { chunking: { max_tokens: CHUNK_TOKENS, overlap_tokens: 0 } } })).id;
    const t0 = performance.now();
    await uploadTexts(api, kb, docs, 8);
    const { failed, peakRssMb } = await settleAll(api, kb, docs.length, pid);
    const { chunk_count: chunks } = await json(api, 'GET', `/v1/knowledge-bases/${kb}`);
    const ingestS = round((performance.now() - t0) / 1000, 1);
    log(`search: ${chunks} chunks in ${docs.length} documents ready in ${ingestS} s`);
    const query = (i: number) => queries[i % queries.length]!;
    const search = (i: number) => post(api, `/v1/knowledge-bases/${kb}/search`, { query: query(i), rerank: false });
    const chatBody = (i: number, stream = false) => ({ model: 'kbqa-extractive', knowledge_base_id: kb, stream, messages: [{ role: 'user', content: query(i) }] });
    const chat = (i: number) => post(api, '/v1/chat/completions', chatBody(i));

    for (let i = 0; i < 50; i++) await search(i);
    const searchMs: number[] = [];
    for (let i = 0; i < SAMPLES; i++) searchMs.push(await timed(() => search(i + 50)));
    const chatMs: number[] = [];
    for (let i = 0; i < SAMPLES; i++) chatMs.push(await timed(() => chat(i)));
    const firstByteMs: number[] = [];
    for (let i = 0; i < SAMPLES; i++) firstByteMs.push(await firstByte(api, chatBody(i, true)));
    // A top-100 keyword answer over HTTP, whole and with only ids, source, page and score (`include: []`).
    const top100 = async (include?: string[]) => {
      const ms: number[] = [];
      let bytes = 0;
      for (let i = 0; i < SAMPLES / 2; i++) {
        const body = { query: query(i), mode: 'keyword', top_k: 100, rerank: false, ...(include && { include }) };
        ms.push(await timed(async () => (bytes = (await post(api, `/v1/knowledge-bases/${kb}/search`, body)).length)));
      }
      return { ...latencySummary(ms), bytes_last: bytes };
    };
    const top100Full = await top100();
    const top100Bare = await top100([]);
    const searchLatency = latencySummary(searchMs);
    const chatLatency = latencySummary(chatMs);
    const firstByteLatency = latencySummary(firstByteMs);
    log(`search: one client: search ${JSON.stringify(searchLatency)} chat ${JSON.stringify(chatLatency)} first byte ${JSON.stringify(firstByteLatency)}`);
    // A few seconds at full load first: query processes start on the first busy moment (about 2 s).
    // Server CPU (query processes included) per request tells scaling apart from the client's share
    // of the cores; wrk, when installed, leaves nearly both to the server (KBQA_BENCH_LOAD=fetch: Node's fetch).
    const useWrk = process.env.KBQA_BENCH_LOAD !== 'fetch' && hasWrk();
    const measured = async (path: string, body: (i: number) => unknown) => {
      const request = (i: number) => post(api, path, body(i));
      const load = async (seconds: number) =>
        useWrk
          ? wrkThroughput({ url: api.base + path, headers: api.headers, bodies: Array.from({ length: 400 }, (_, i) => JSON.stringify(body(i))), clients: CONCURRENT_CLIENTS, seconds })
          : throughput(CONCURRENT_CLIENTS, seconds, request);
      await load(WARM_UP_S);
      const cpu0 = groupCpuSeconds(pid);
      const result = await load(THROUGHPUT_S);
      const cpu = groupCpuSeconds(pid) - cpu0;
      return { ...result, server_cores_busy: round(cpu / THROUGHPUT_S, 2), server_cpu_ms_per_request: round((cpu * 1000) / (result.requests_per_s * THROUGHPUT_S), 2) };
    };
    const searchAndChat = async () => ({
      search: await measured(`/v1/knowledge-bases/${kb}/search`, (i) => ({ query: query(i), rerank: false })),
      chat: await measured('/v1/chat/completions', (i) => chatBody(i)),
    });
    const { search: searchLoad, chat: chatLoad } = await searchAndChat();
    // The same again, the query process now started, loaded and warm for the whole window: the
    // first pair's tail can still hold its start (its copy of the indexes, its first collections).
    const { search: sustainedSearch, chat: sustainedChat } = await searchAndChat();
    const metrics = await (await fetch(`${api.base}/metrics`)).text();
    const retrievals = Object.fromEntries([...metrics.matchAll(/^kbqa_retrievals_total\{where="(\w+)"\} (\d+)/gm)].map((m) => [m[1], Number(m[2])]));
    log(`search: ${CONCURRENT_CLIENTS} clients: search ${searchLoad.requests_per_s}/s, chat ${chatLoad.requests_per_s}/s; sustained ${sustainedSearch.requests_per_s}/s, ${sustainedChat.requests_per_s}/s`);
    return {
      chunks,
      documents: docs.length,
      failed_documents: failed.length,
      ingest_s: ingestS,
      ingest_peak_rss_mb: peakRssMb,
      search_hybrid_no_rerank: searchLatency,
      chat_offline: chatLatency,
      chat_stream_first_byte: firstByteLatency,
      keyword_top_100: top100Full,
      keyword_top_100_include_none: top100Bare,
      [`search_at_${CONCURRENT_CLIENTS}_clients`]: searchLoad,
      [`chat_at_${CONCURRENT_CLIENTS}_clients`]: chatLoad,
      [`search_at_${CONCURRENT_CLIENTS}_clients_sustained`]: sustainedSearch,
      [`chat_at_${CONCURRENT_CLIENTS}_clients_sustained`]: sustainedChat,
      retrievals_answered: retrievals,
      server_cpus: process.env.KBQA_BENCH_SERVER_CPUS ?? 'all',
      load_generator: useWrk ? 'wrk -t1' : 'fetch',
      targets: TARGETS,
      pass:
        chunks >= 0.95 * TARGET_CHUNKS &&
        searchLatency.p50_ms <= TARGETS.search_p50_ms &&
        searchLatency.p99_ms <= TARGETS.search_p99_ms &&
        chatLatency.p50_ms <= TARGETS.chat_p50_ms &&
        firstByteLatency.p50_ms <= TARGETS.first_byte_p50_ms,
    };
  });
}
