import { type Api, json, settleAll, uploadTexts, withKbqa } from './kbqa-api.ts';
import { benchCorpus, CHUNKS_PER_DOCUMENT, CHUNK_TOKENS, post, timed } from './search.bench.ts';
import { latencySummary, log, round } from './util.ts';

/** 100k chunks by default, as search_chat; SEARCH_BENCH_CHUNKS shrinks it for a quick look. */
const TARGET_CHUNKS = Number(process.env.SEARCH_BENCH_CHUNKS ?? 100_000);
const SAMPLES = 400;
const MAX_RATIO = 1.2;

/** A published agent's page chat, as a visitor without a key sends it (a first question: no cookie yet). */
async function publicChat(api: Api, slug: string, question: string): Promise<string> {
  const res = await fetch(`${api.base}/a/${slug}/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [{ role: 'user', content: question }] }) });
  const text = await res.text();
  if (!res.ok) throw new Error(`/a/${slug}/chat: ${res.status} ${text.slice(0, 300)}`);
  return text;
}

/**
 * `npm run bench -- public_chat`: a published agent's page chat against /v1/chat/completions on the
 * same knowledge base of 100k chunks and the same offline model, one client, the two alternated
 * request by request so that the machine's drift falls on both. Goal: the page's p50 within 1.2×.
 */
export async function publicChatBench() {
  const { docs, queries } = benchCorpus(Math.ceil(TARGET_CHUNKS / CHUNKS_PER_DOCUMENT));
  // The page's per-IP limit is off: one client asks 800 questions here, far past a visitor's 20 a minute.
  return withKbqa(
    'public-chat',
    async (api, pid) => {
      const kb = (await json(api, 'POST', '/v1/knowledge-bases', { name: 'bench', settings: { chunking: { max_tokens: CHUNK_TOKENS, overlap_tokens: 0 } } })).id;
      await uploadTexts(api, kb, docs, 8);
      await settleAll(api, kb, docs.length, pid);
      const { chunk_count: chunks } = await json(api, 'GET', `/v1/knowledge-bases/${kb}`);
      const agent = await json(api, 'POST', '/v1/agents', { name: 'bench', model: 'kbqa-extractive', knowledge_base_ids: [kb] });
      const slug = ((await json(api, 'POST', `/v1/agents/${agent.id}/publish`)).public_url as string).slice('/a/'.length);
      const question = (i: number) => queries[i % queries.length]!;
      const api_ = (i: number) => post(api, '/v1/chat/completions', { model: 'kbqa-extractive', knowledge_base_id: kb, messages: [{ role: 'user', content: question(i) }] });
      for (let i = 0; i < 50; i++) {
        await api_(i);
        await publicChat(api, slug, question(i));
      }
      const apiMs: number[] = [];
      const pageMs: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        apiMs.push(await timed(() => api_(i + 50)));
        pageMs.push(await timed(() => publicChat(api, slug, question(i + 50))));
      }
      const chatCompletions = latencySummary(apiMs);
      const page = latencySummary(pageMs);
      const ratio = round(page.p50_ms / chatCompletions.p50_ms, 2);
      log(`public_chat: ${chunks} chunks; /v1/chat/completions ${JSON.stringify(chatCompletions)}; /a/{slug}/chat ${JSON.stringify(page)}; p50 ratio ${ratio}`);
      return { chunks, chat_completions: chatCompletions, public_chat: page, p50_ratio: ratio, p99_ratio: round(page.p99_ms / chatCompletions.p99_ms, 2), goal_max_p50_ratio: MAX_RATIO, pass: ratio <= MAX_RATIO };
    },
    { KBQA_LANDING_MESSAGES_PER_MINUTE: '0' },
  );
}
