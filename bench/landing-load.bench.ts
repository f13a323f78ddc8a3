import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Api, json, settleAll, uploadTexts, withKbqa } from './kbqa-api.ts';
import { latencySummary, log, round } from './util.ts';

/**
 * `npm run bench -- landing_load` (issue 42, item 5): 70 anonymous landing-page chats whose model
 * answers slowly (a loopback OpenAI-compatible stand-in that waits before answering, connected as
 * the workspace's model provider), while one authenticated client searches and chats (offline
 * model, a small knowledge base) one request at a time. Figures: that client's p50 and 503 rate,
 * alone and under the public load.
 *   LANDING_LOAD_CHATS       anonymous chats at once (70)
 *   LANDING_LOAD_DELAY_MS    how long the stand-in model waits before each answer (20,000)
 *   LANDING_LOAD_SECONDS     how long the authenticated client measures under load (15)
 *   KBQA_BENCH_ROOT          the checkout whose server runs (a copy of main's, to measure before)
 * Any KBQA_* variable set for the bench reaches the server (e.g. KBQA_LANDING_CONCURRENCY).
 */
const CHATS = Number(process.env.LANDING_LOAD_CHATS ?? 70);
const DELAY_MS = Number(process.env.LANDING_LOAD_DELAY_MS ?? 20_000);
const SECONDS = Number(process.env.LANDING_LOAD_SECONDS ?? 15);
const BASELINE_SECONDS = 5;
const TARGETS = { max_503_rate: 0, max_p50_ratio: 2 };

/** A slow OpenAI-compatible chat model: GET /v1/models lists it, POST /v1/chat/completions answers after DELAY_MS. */
async function slowModel(): Promise<{ baseUrl: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/v1/models') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'slow-chat', object: 'model', created: 0, owned_by: 'bench' }] }));
    req.resume();
    req.on('end', () => {
      const timer = setTimeout(() => {
        const message = { role: 'assistant', content: 'A slow answer.', refusal: null };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'chatcmpl-slow', object: 'chat.completion', created: 0, model: 'slow-chat', choices: [{ index: 0, message, logprobs: null, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 3, total_tokens: 4 } }));
      }, DELAY_MS);
      res.on('close', () => clearTimeout(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server };
}

type Sample = { ms: number; status: number };

async function timedStatus(api: Api, path: string, body: unknown): Promise<Sample> {
  const t0 = performance.now();
  const res = await fetch(api.base + path, { method: 'POST', headers: { ...api.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await res.arrayBuffer();
  return { ms: performance.now() - t0, status: res.status };
}

/** The authenticated client: search, then chat, one at a time, for `seconds`. */
async function authenticatedClient(api: Api, kb: string, seconds: number) {
  const search: Sample[] = [];
  const chat: Sample[] = [];
  const until = performance.now() + seconds * 1000;
  for (let i = 0; performance.now() < until; i++) {
    const query = `turbine blade length ${i % 7}`;
    search.push(await timedStatus(api, `/v1/knowledge-bases/${kb}/search`, { query }));
    chat.push(await timedStatus(api, '/v1/chat/completions', { model: 'kbqa-extractive', knowledge_base_id: kb, messages: [{ role: 'user', content: query }] }));
  }
  const summary = (samples: Sample[]) => {
    const ok = samples.filter((s) => s.status === 200).map((s) => s.ms);
    const overloaded = samples.filter((s) => s.status === 503).length;
    // No answer at all (every request refused): no latency to report.
    const latency = ok.length > 0 ? latencySummary(ok) : { p50_ms: null, p99_ms: null, max_ms: null };
    return { requests: samples.length, answered: ok.length, ...latency, rate_503: round(overloaded / Math.max(1, samples.length), 3), other_failures: samples.length - ok.length - overloaded };
  };
  return { search: summary(search), chat: summary(chat) };
}

export async function landingLoadBench() {
  const model = await slowModel();
  try {
    return await withKbqa(
      'landing-load',
      async (api, pid) => {
        const kb = (await json(api, 'POST', '/v1/knowledge-bases', { name: 'theirs' })).id as string;
        const docs = Array.from({ length: 40 }, (_, i) => ({ name: `doc-${i}.md`, text: `# Part ${i}\n\nThe Zephyr-${i} turbine has blades of ${40 + i} metres and produces ${i % 5} megawatts.` }));
        await uploadTexts(api, kb, docs, 4);
        await settleAll(api, kb, docs.length, pid);
        await json(api, 'POST', '/v1/model-providers', { name: 'slow', base_url: model.baseUrl, api_key: 'sk-bench-slow', models: [{ id: 'slow-chat', type: 'chat' }] });
        const agent = await json(api, 'POST', '/v1/agents', { name: 'Busy page', model: 'slow/slow-chat' });
        const slug = ((await json(api, 'POST', `/v1/agents/${agent.id}/publish`)).public_url as string).slice('/a/'.length);

        await authenticatedClient(api, kb, 1); // warm-up
        const alone = await authenticatedClient(api, kb, BASELINE_SECONDS);
        log(`landing_load: alone ${JSON.stringify(alone)}`);

        const anonymous = Array.from({ length: CHATS }, () =>
          fetch(`${api.base}/a/${slug}/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [{ role: 'user', content: 'Hello?' }] }) })
            .then(async (res) => (await res.arrayBuffer(), res.status))
            .catch(() => 0),
        );
        await new Promise((resolve) => setTimeout(resolve, 500));
        const underLoad = await authenticatedClient(api, kb, SECONDS);
        log(`landing_load: under ${CHATS} slow anonymous chats ${JSON.stringify(underLoad)}`);
        const statuses: Record<string, number> = {};
        for (const status of await Promise.all(anonymous)) statuses[status] = (statuses[status] ?? 0) + 1;
        const ratio = (k: 'search' | 'chat') => (underLoad[k].p50_ms === null || alone[k].p50_ms === null ? null : round(underLoad[k].p50_ms / Math.max(0.001, alone[k].p50_ms), 2));
        const within = (k: 'search' | 'chat') => underLoad[k].rate_503 <= TARGETS.max_503_rate && (ratio(k) ?? Infinity) <= TARGETS.max_p50_ratio;
        const pass = within('search') && within('chat');
        return {
          anonymous_chats: CHATS,
          model_delay_ms: DELAY_MS,
          alone,
          under_load: underLoad,
          p50_ratio: { search: ratio('search'), chat: ratio('chat') },
          anonymous_statuses: statuses,
          targets: TARGETS,
          pass,
        };
      },
      { KBQA_LANDING_MESSAGES_PER_MINUTE: '0', KBQA_WORKFLOW_HTTP_ALLOW_HOSTS: '127.0.0.1', KBQA_OPENAI_MAX_RETRIES: '0', KBQA_OPENAI_TIMEOUT_S: String(Math.ceil(DELAY_MS / 1000) + 30), ...kbqaEnv() },
    );
  } finally {
    model.server.closeAllConnections();
    model.server.close();
  }
}

/** The bench's own KBQA_* settings, passed on to the server. */
const kbqaEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k, v]) => k.startsWith('KBQA_') && k !== 'KBQA_BENCH_ROOT' && v !== undefined)) as Record<string, string>;
