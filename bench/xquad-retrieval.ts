// BM25 retrieval per language on XQuAD: the 240 contexts of a language are the documents, each
// of its 1,190 questions the query; top-1 and top-5 say how often the gold context ranks first
// or among the first five. Compares analysers across scripts (needs ../shared/data/bench/xquad).
//   npm run bench -- xquad_retrieval          every language, detected and pinned
//   node --import tsx bench/xquad-retrieval.ts [--pinned] [language ...]
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite } from '../src/adapters/sqlite/database.ts';
import { createSqliteKeywordIndex } from '../src/adapters/sqlite/keyword-index.ts';
import { log, round } from './util.ts';
import { defaultAnalyzer } from './analyzer.ts';

const XQUAD_DIR = join(import.meta.dirname, '../../shared/data/bench/xquad');
const LANGUAGES = ['en', 'de', 'es', 'ru', 'ar', 'zh'];

type Squad = { data: { paragraphs: { context: string; qas: { question: string }[] }[] }[] };

export function loadXquad(language: string): { contexts: string[]; questions: { text: string; gold: number }[] } {
  const squad = JSON.parse(readFileSync(join(XQUAD_DIR, `xquad.${language}.json`), 'utf8')) as Squad;
  const contexts: string[] = [];
  const questions: { text: string; gold: number }[] = [];
  for (const article of squad.data) {
    for (const p of article.paragraphs) {
      for (const qa of p.qas) questions.push({ text: qa.question, gold: contexts.length });
      contexts.push(p.context);
    }
  }
  return { contexts, questions };
}

export async function xquadRetrieval(languages = LANGUAGES, pinned = false) {
  const report: Record<string, unknown> = {};
  for (const language of languages) {
    if (!existsSync(join(XQUAD_DIR, `xquad.${language}.json`))) continue;
    const { contexts, questions } = loadXquad(language);
    const index = createSqliteKeywordIndex(openSqlite(':memory:'), { analyzer: await defaultAnalyzer() });
    const options = pinned ? { language } : {};
    const t0 = performance.now();
    await index.upsert('ns', contexts.map((text, i) => ({ id: String(i), documentId: String(i), text })), options);
    const indexMs = performance.now() - t0;
    let top1 = 0;
    let top5 = 0;
    for (const q of questions) {
      const hits = await index.query('ns', q.text, 5, undefined, options);
      if (hits[0]?.id === String(q.gold)) top1++;
      if (hits.some((h) => h.id === String(q.gold))) top5++;
    }
    report[language] = { top1: round(top1 / questions.length, 3), top5: round(top5 / questions.length, 3), index_ms: round(indexMs, 0) };
    log(`xquad ${language}${pinned ? ' (pinned)' : ''}: ${JSON.stringify(report[language])}`);
  }
  return report;
}

/** Both policies: each language detected (documents on upsert, questions on query), and pinned as a knowledge base would. */
export async function xquadRetrievalBench() {
  if (!existsSync(XQUAD_DIR)) return { skipped: 'needs ../shared/data/bench/xquad' };
  return { detected: await xquadRetrieval(LANGUAGES, false), pinned: await xquadRetrieval(LANGUAGES, true) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const pinned = args.includes('--pinned');
  const languages = args.filter((a) => !a.startsWith('--'));
  const report = await xquadRetrieval(languages.length > 0 ? languages : LANGUAGES, pinned);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}
