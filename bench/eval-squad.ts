// SQuAD 2.0 through chat: does the service answer what its knowledge base covers, and refuse what
// it does not (adversarial questions on the same articles, questions on other articles)?
// One knowledge base of the 8 articles, one Markdown document each, default settings.
import { join } from 'node:path';
import { containsGold, isRefusal, squadAnswerCorrect } from './answer-scoring.ts';
import type { EvalContext } from './eval-context.ts';
import { evalKbSettings, json, settleAll, uploadTexts, withKbqa } from './kbqa-api.ts';
import { askAll, latency, splitShares, withGoal, type Ask } from './qa-run.ts';
import { articleUpload, BENCH_DATA_DIR, loadOffTopic, loadSquadArticles, missing, splitOf, type Article } from './squad-data.ts';
import { log, round } from './util.ts';

const DIR = join(BENCH_DATA_DIR, 'squad2');
const ARTICLES = join(DIR, 'dev-v2.0-visible.json');
const OFF_TOPIC = join(DIR, 'offtopic-questions.jsonl');

const GOALS = { answerable: 0.9, offtopic: 0.97 };

function asks(articles: readonly Article[], offTopic: ReturnType<typeof loadOffTopic>): Ask[] {
  const onTopic = articles.flatMap((a, i) =>
    a.questions.map(
      (q): Ask =>
        q.impossible
          ? { split: splitOf(i), category: 'unanswerable', id: q.id, question: q.question, gold: [], judge: isRefusal }
          : { split: splitOf(i), category: 'answerable', id: q.id, question: q.question, gold: q.golds, judge: (r) => squadAnswerCorrect(r, q.golds), inContext: (ps) => ps.some((p) => containsGold(p, q.golds)) },
    ),
  );
  const elsewhere = offTopic.map((q): Ask => ({ split: q.split, category: 'offtopic', id: q.id, question: q.question, gold: [], judge: isRefusal }));
  return [...onTopic, ...elsewhere];
}

export async function runSquad2(ctx: EvalContext): Promise<object> {
  const absent = missing([ARTICLES, OFF_TOPIC]);
  if (absent.length > 0) return { skipped: `needs ${absent.join(', ')}` };
  const articles = loadSquadArticles(ARTICLES);
  const questions = asks(articles, loadOffTopic(OFF_TOPIC));
  return withKbqa('eval-squad2', async (api, pid) => {
    const started = performance.now();
    const kb = (await json(api, 'POST', '/v1/knowledge-bases', { name: 'squad2-eval', settings: evalKbSettings() })).id;
    await uploadTexts(api, kb, articles.map(articleUpload));
    const { failed } = await settleAll(api, kb, articles.length, pid);
    log(`squad2: ${articles.length} articles ready (${failed.length} failed); asking ${questions.length} questions`);
    const rows = await askAll(api, kb, 'squad2', questions);
    ctx.record(rows);
    const of = (category: string) => rows.filter((r) => r.category === category);
    const report = {
      articles: articles.length,
      documents_failed: failed.length,
      answerable: withGoal(splitShares(of('answerable')), GOALS.answerable),
      offtopic: withGoal(splitShares(of('offtopic')), GOALS.offtopic),
      // Reported, no goal: these look answerable from the very article that cannot answer them.
      unanswerable: splitShares(of('unanswerable')),
      latency: latency(rows),
      seconds: round((performance.now() - started) / 1000, 1),
    };
    log(`squad2: ${JSON.stringify(report)}`);
    return report;
  });
}
