import autocannon from 'autocannon';
import { Worker } from 'node:worker_threads';
import { json, settleAll, uploadTexts, withKbqa } from './kbqa-api.ts';
import { benchCorpus, CHUNK_TOKENS, CHUNKS_PER_DOCUMENT } from './search.bench.ts';
import { ROOT } from './server-process.ts';
import { latencySummary, log, round } from './util.ts';

/**
 * 150 clients hammer chat while another client probes /healthz and /readyz: do the operators'
 * endpoints stay fast when the API is overloaded (issue 12)?
 *   OVERLOAD_BENCH_CHUNKS        chunks in the knowledge base (default 100,000, as search_chat)
 *   OVERLOAD_BENCH_CONNECTIONS   chat clients (150);  OVERLOAD_BENCH_SECONDS  how long (15)
 *   OVERLOAD_BENCH_ROOT          the checkout whose server runs (default this one), to measure another commit
 * Any KBQA_* variable set for the bench reaches the server (e.g. KBQA_QUERY_CONCURRENCY).
 */
const TARGET_CHUNKS = Number(process.env.OVERLOAD_BENCH_CHUNKS ?? 100_000);
const CONNECTIONS = Number(process.env.OVERLOAD_BENCH_CONNECTIONS ?? 150);
const DURATION_S = Number(process.env.OVERLOAD_BENCH_SECONDS ?? 15);
const SERVER_ROOT = process.env.OVERLOAD_BENCH_ROOT || ROOT;
/** Pause between two probes of the sequential prober. */
const PROBE_GAP_MS = 10;
const TARGETS = { probe_p99_ms: 100 };

/**
 * The prober runs on its own thread (its own event loop), so the load generator's work in this
 * process does not sit in the probes' latency. One keep-alive connection, one probe at a time,
 * /healthz and /readyz alternately.
 */
const PROBER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const samples = { '/healthz': [], '/readyz': [] };
const failures = { '/healthz': {}, '/readyz': {} };
let stop = false;
parentPort.on('message', () => { stop = true; });
const probe = (path) => new Promise((resolve) => {
  const t0 = performance.now();
  const req = http.get(workerData.base + path, { agent, timeout: 30000 }, (res) => {
    res.resume();
    res.on('end', () => resolve({ ms: performance.now() - t0, status: res.statusCode }));
  });
  req.on('timeout', () => req.destroy(new Error('timeout')));
  req.on('error', (e) => resolve({ ms: performance.now() - t0, status: e.code || e.message }));
});
(async () => {
  for (let i = 0; !stop; i++) {
    const path = i % 2 === 0 ? '/healthz' : '/readyz';
    const { ms, status } = await probe(path);
    samples[path].push(ms);
    if (status !== 200) failures[path][status] = (failures[path][status] || 0) + 1;
    await new Promise((r) => setTimeout(r, workerData.gapMs));
  }
  agent.destroy();
  parentPort.postMessage({ samples, failures });
})();
`;

type ProbeResult = { samples: Record<string, number[]>; failures: Record<string, Record<string, number>> };

function startProber(base: string) {
  const worker = new Worker(PROBER, { eval: true, workerData: { base, gapMs: PROBE_GAP_MS } });
  const result = new Promise<ProbeResult>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    async stop(): Promise<ProbeResult> {
      worker.postMessage('stop');
      const r = await result;
      await worker.terminate();
      return r;
    },
  };
}

function hammer(base: string, headers: Record<string, string>, body: (i: number) => string, seconds: number, connections: number) {
  const okMs: number[] = [];
  const statuses: Record<string, number> = {};
  let i = 0;
  return new Promise<{ result: autocannon.Result; okMs: number[]; statuses: Record<string, number> }>((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections,
        pipelining: 1,
        duration: seconds,
        timeout: 30,
        requests: [
          {
            method: 'POST',
            path: '/v1/chat/completions',
            headers: { ...headers, 'content-type': 'application/json' },
            setupRequest: (req) => ({ ...req, body: body(i++) }),
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve({ result, okMs, statuses })),
    );
    instance.on('response', (_client, status, _bytes, responseTime) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status === 200) okMs.push(responseTime);
    });
  });
}

/** The KBQA_* settings this run hands the server (the load-shedding and connection limits among them). */
const serverSettings = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('KBQA_')));

export async function overloadBench() {
  const documents = Math.ceil(TARGET_CHUNKS / CHUNKS_PER_DOCUMENT);
  const { docs, queries } = benchCorpus(documents);
  return withKbqa(
    'overload',
    async (api, pid) => {
      const kb = (await json(api, 'POST', '/v1/knowledge-bases', { name: 'bench', settings: { chunking: { max_tokens: CHUNK_TOKENS, overlap_tokens: 0 } } })).id;
      const t0 = performance.now();
      await uploadTexts(api, kb, docs, 8);
      const { failed } = await settleAll(api, kb, docs.length, pid);
      const { chunk_count: chunks } = await json(api, 'GET', `/v1/knowledge-bases/${kb}`);
      log(`overload: ${chunks} chunks in ${docs.length} documents ready in ${round((performance.now() - t0) / 1000, 1)} s`);
      const chatBody = (i: number) =>
        JSON.stringify({ model: 'kbqa-extractive', knowledge_base_id: kb, messages: [{ role: 'user', content: queries[i % queries.length]! }] });
      // Warm: the first queries load what the indexes build lazily.
      for (let i = 0; i < 20; i++) await json(api, 'POST', '/v1/chat/completions', JSON.parse(chatBody(i)));
      const idle = startProber(api.base);
      await new Promise((r) => setTimeout(r, 2_000));
      const idleProbes = await idle.stop();

      log(`overload: ${CONNECTIONS} clients hammer chat for ${DURATION_S} s while /healthz and /readyz are probed`);
      const prober = startProber(api.base);
      const { result, okMs, statuses } = await hammer(api.base, api.headers, chatBody, DURATION_S, CONNECTIONS);
      const probes = await prober.stop();

      const total = Object.values(statuses).reduce((a, b) => a + b, 0);
      const probeSummary = (p: ProbeResult, path: string) => ({ samples: p.samples[path]!.length, ...latencySummary(p.samples[path]!), failures: p.failures[path]! });
      const healthz = probeSummary(probes, '/healthz');
      const readyz = probeSummary(probes, '/readyz');
      const chat = {
        responses: total,
        statuses,
        ok_per_s: round((statuses[200] ?? 0) / result.duration, 1),
        share_503: total === 0 ? 0 : round((statuses[503] ?? 0) / total, 3),
        ok_latency: latencySummary(okMs),
        errors: result.errors,
        timeouts: result.timeouts,
      };
      log(`overload: healthz p99 ${healthz.p99_ms} ms, readyz p99 ${readyz.p99_ms} ms; chat ${chat.ok_per_s}/s ok, ${chat.share_503} shed`);
      return {
        server_root: SERVER_ROOT,
        server_settings: serverSettings(),
        chunks,
        documents: docs.length,
        failed_documents: failed.length,
        connections: CONNECTIONS,
        duration_s: round(result.duration, 1),
        chat,
        probes: { healthz, readyz },
        probes_idle: { healthz: probeSummary(idleProbes, '/healthz'), readyz: probeSummary(idleProbes, '/readyz') },
        targets: TARGETS,
        pass: healthz.p99_ms <= TARGETS.probe_p99_ms && readyz.p99_ms <= TARGETS.probe_p99_ms,
      };
    },
    {},
    SERVER_ROOT,
  );
}
