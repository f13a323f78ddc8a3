import { join } from 'node:path';
import { json, settleAll, uploadTexts, withKbqa, type Api } from './kbqa-api.ts';
import { articleUpload, BENCH_DATA_DIR, loadSquadArticles, missing } from './squad-data.ts';

/**
 * Whether /v1/responses with file_search answers as /v1/chat/completions does: the SQuAD 2.0
 * articles in one knowledge base, `QUESTIONS` of their questions (answerable and not) asked both
 * ways with the offline model, and the text, the citations and the annotations compared, with
 * each route's median latency. Run: `node --import tsx bench/responses-parity.ts [questions]`.
 */

const ARTICLES = join(BENCH_DATA_DIR, 'squad2', 'dev-v2.0-visible.json');
const QUESTIONS = Number(process.argv[2] ?? 200);

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const out = await fn();
  return [out, performance.now() - t0];
}

/** The annotations chat's citations imply: one per `[n]` marker, at its offset, naming the cited document. */
const expectedAnnotations = (text: string, citations: { index: number; document_id: string; source: string }[]) =>
  [...text.matchAll(/\[(\d+)\]/g)].flatMap((m) => {
    const c = citations.find((x) => x.index === Number(m[1]));
    return c ? [{ type: 'file_citation', index: m.index, file_id: c.document_id, filename: c.source }] : [];
  });

async function compare(api: Api, kb: string, question: string) {
  const [chat, chatMs] = await timed(() => json(api, 'POST', '/v1/chat/completions', { model: 'kbqa-extractive', knowledge_base_id: kb, messages: [{ role: 'user', content: question }] }));
  const [resp, respMs] = await timed(() => json(api, 'POST', '/v1/responses', { model: 'kbqa-extractive', input: question, tools: [{ type: 'file_search', vector_store_ids: [kb] }], store: false }));
  const message = resp.output.find((o: any) => o.type === 'message');
  const text = message.content[0].text as string;
  const content = chat.choices[0].message.content as string;
  return {
    sameText: text === content,
    sameCitations: JSON.stringify(resp.citations) === JSON.stringify(chat.citations),
    sameAnnotations: JSON.stringify(message.content[0].annotations) === JSON.stringify(expectedAnnotations(content, chat.citations)),
    annotated: message.content[0].annotations.length > 0,
    chatMs,
    respMs,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function main() {
  const absent = missing([ARTICLES]);
  if (absent.length > 0) return console.log(`skipped: needs ${absent.join(', ')}`);
  const articles = loadSquadArticles(ARTICLES);
  const all = articles.flatMap((a) => a.questions);
  const step = Math.max(1, Math.floor(all.length / QUESTIONS));
  const questions = all.filter((_, i) => i % step === 0).slice(0, QUESTIONS);
  await withKbqa('responses-parity', async (api, pid) => {
    const kb = (await json(api, 'POST', '/v1/knowledge-bases', { name: 'responses-parity' })).id;
    await uploadTexts(api, kb, articles.map(articleUpload));
    await settleAll(api, kb, articles.length, pid);
    const rows: Awaited<ReturnType<typeof compare>>[] = [];
    for (const q of questions) rows.push(await compare(api, kb, q.question));
    const count = (f: (r: (typeof rows)[number]) => boolean) => rows.filter(f).length;
    console.log(
      JSON.stringify({
        questions: rows.length,
        same_text: count((r) => r.sameText),
        same_citations: count((r) => r.sameCitations),
        same_annotations: count((r) => r.sameAnnotations),
        annotated: count((r) => r.annotated),
        median_ms: { chat: Math.round(median(rows.map((r) => r.chatMs))), responses: Math.round(median(rows.map((r) => r.respMs))) },
      }),
    );
  });
}

await main();
