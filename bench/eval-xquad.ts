// XQuAD through chat: the same 1,190 questions in six languages, one knowledge base per language
// (one Markdown document per article, default settings), every question answerable.
import { join } from 'node:path';
import { containsGold, isRefusal, xquadAnswerCorrect } from './answer-scoring.ts';
import type { EvalContext } from './eval-context.ts';
import { evalKbSettings, json, settleAll, uploadTexts, withKbqa, type Api } from './kbqa-api.ts';
import { askAll, latency, splitShares, withGoal, type Ask, type ResultRow } from './qa-run.ts';
import { articleUpload, BENCH_DATA_DIR, loadSquadArticles, missing, splitOf } from './squad-data.ts';
import { log, round } from './util.ts';

export const XQUAD_LANGUAGES = ['en', 'de', 'es', 'ru', 'zh', 'ar'] as const;

const fileOf = (language: string) => join(BENCH_DATA_DIR, 'xquad', `xquad.${language}.json`);
const goalOf = (language: string) => (language === 'en' ? 0.9 : 0.8);

async function runLanguage(api: Api, pid: number, language: string): Promise<ResultRow[]> {
  const articles = loadSquadArticles(fileOf(language));
  const kb = (await json(api, 'POST', '/v1/knowledge-bases', { name: `xquad-${language}-eval`, settings: evalKbSettings() })).id;
  await uploadTexts(api, kb, articles.map(articleUpload));
  const { failed } = await settleAll(api, kb, articles.length, pid);
  if (failed.length > 0) log(`xquad ${language}: ${failed.length} documents failed: ${JSON.stringify(failed.slice(0, 3))}`);
  const asks = articles.flatMap((a, i) =>
    a.questions.map(
      (q): Ask => ({
        split: splitOf(i),
        category: `xquad-${language}`,
        id: q.id,
        question: q.question,
        gold: q.golds,
        judge: (r) => xquadAnswerCorrect(r, q.golds, language),
        inContext: (ps) => ps.some((p) => containsGold(p, q.golds, language)),
      }),
    ),
  );
  return askAll(api, kb, 'xquad', asks);
}

/**
 * Off-topic questions in the same language: a second knowledge base holds only the even
 * articles, and is asked the odd articles' questions, which nothing in it answers. Reported,
 * with no goal of its own: it shows what the answerability default refuses outside English.
 */
async function runOffTopic(api: Api, pid: number, language: string): Promise<ResultRow[]> {
  const articles = loadSquadArticles(fileOf(language));
  const kept = articles.filter((_, i) => splitOf(i) === 'fit');
  const kb = (await json(api, 'POST', '/v1/knowledge-bases', { name: `xquad-${language}-even-articles`, settings: evalKbSettings() })).id;
  await uploadTexts(api, kb, kept.map(articleUpload));
  await settleAll(api, kb, kept.length, pid);
  const asks = articles.flatMap((a, i) =>
    splitOf(i) === 'fit'
      ? []
      : a.questions.map((q): Ask => ({ split: 'held_out', category: `xquad-${language}-offtopic`, id: q.id, question: q.question, gold: [], judge: isRefusal })),
  );
  return askAll(api, kb, 'xquad', asks);
}

/** `ctx.parts` picks languages (`npm run eval -- xquad` asks them all). */
export async function runXQuad(ctx: EvalContext): Promise<object> {
  const languages = ctx.parts.length > 0 ? ctx.parts : [...XQUAD_LANGUAGES];
  const absent = missing(languages.map(fileOf));
  if (absent.length > 0) return { skipped: `needs ${absent.join(', ')}` };
  return withKbqa('eval-xquad', async (api, pid) => {
    const started = performance.now();
    const report: Record<string, unknown> = {};
    const all: ResultRow[] = [];
    const passes: boolean[] = [];
    for (const language of languages) {
      const t0 = performance.now();
      const rows = await runLanguage(api, pid, language);
      ctx.record(rows);
      all.push(...rows);
      const scored = withGoal(splitShares(rows), goalOf(language));
      passes.push(scored.pass.held_out);
      const offTopic = await runOffTopic(api, pid, language);
      ctx.record(offTopic);
      const offtopicRefused = splitShares(offTopic).all;
      report[language] = { ...scored, offtopic_refused: offtopicRefused, latency: latency(rows), seconds: round((performance.now() - t0) / 1000, 1) };
      log(`xquad ${language}: ${JSON.stringify(report[language])}`);
    }
    // The goal is met when every language meets its own on the held-out half.
    return { languages: report, pass_held_out: passes.every(Boolean), latency: latency(all), seconds: round((performance.now() - started) / 1000, 1) };
  });
}
