// Fitting the offline answerer and the answerability gate on the FIT half only (even articles),
// fast: `dump` retrieves once through the HTTP API (default settings) and saves each fit
// question's passages; `score` answers them in process with the current answerer, in seconds.
//   node --import tsx bench/answer-fit.ts dump squad2|xquad:<lang> <file.jsonl>
//   node --import tsx bench/answer-fit.ts score <file.jsonl> [--show N]
//   node --import tsx bench/answer-fit.ts tradeoff <file.jsonl>…   answered / refused per min_coverage
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadWordRanks } from '../src/adapters/local/hashing-embedder.ts';
import { loadTextAnalyzer } from '../src/adapters/text/analyzer.ts';
import { extractAnswer } from '../src/domain/answer/extract.ts';
import { termReader } from '../src/domain/answer/words.ts';
import { rarityFromRanks } from '../src/domain/answer/rarity.ts';
import { underHeadings } from '../src/domain/retrieval/passage-text.ts';
import { containsGold, wordCount } from './answer-scoring.ts';
import { json, settleAll, uploadTexts, withKbqa } from './kbqa-api.ts';
import { articleUpload, BENCH_DATA_DIR, loadOffTopic, loadSquadArticles, splitOf } from './squad-data.ts';

type Dumped = {
  category: string;
  language: string;
  question: string;
  golds: string[];
  coverage: number;
  terms: { term: string; document_frequency: number; held: boolean }[];
  chunks: number;
  passages: { text: string }[];
};

async function dump(suite: string, out: string) {
  const [name, language = 'en'] = suite.split(':');
  const file = name === 'squad2' ? join(BENCH_DATA_DIR, 'squad2', 'dev-v2.0-visible.json') : join(BENCH_DATA_DIR, 'xquad', `xquad.${language}.json`);
  const articles = loadSquadArticles(file);
  const asks = articles.flatMap((a, i) => (splitOf(i) === 'fit' ? a.questions.map((q) => ({ category: q.impossible ? 'unanswerable' : 'answerable', question: q.question, golds: q.golds })) : []));
  if (name === 'squad2') {
    for (const q of loadOffTopic(join(BENCH_DATA_DIR, 'squad2', 'offtopic-questions.jsonl'))) if (q.split === 'fit') asks.push({ category: 'offtopic', question: q.question, golds: [] });
  }
  const rows = await withKbqa('answer-fit', async (api, pid) => {
    const kb = (await json(api, 'POST', '/v1/knowledge-bases', { name: 'fit' })).id;
    await uploadTexts(api, kb, articles.map(articleUpload));
    await settleAll(api, kb, articles.length, pid);
    const chunks = (await json(api, 'GET', `/v1/knowledge-bases/${kb}`)).chunk_count as number;
    const dumped: Dumped[] = [];
    for (const ask of asks) {
      const res = await json(api, 'POST', `/v1/knowledge-bases/${kb}/search`, { query: ask.question, explain: true });
      const passages = (res.data as { paragraph: string; heading_path: string[] }[]).map((h) => ({ text: underHeadings(h.heading_path, h.paragraph) }));
      dumped.push({ ...ask, language, coverage: res.coverage, terms: res.coverage_terms, chunks, passages });
    }
    return dumped;
  });
  writeFileSync(out, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

async function score(file: string, show: number) {
  const answer = await offlineAnswerer();
  const rows = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Dumped);
  let right = 0;
  let total = 0;
  let long = 0;
  const wrong: string[] = [];
  const started = performance.now();
  for (const row of rows) {
    if (row.category !== 'answerable') continue;
    total++;
    const content = answer(row);
    const limitOk = withinLimit(content, row, file);
    const found = containsGold(content, row.golds, row.language);
    if (found && !limitOk) long++;
    if (found && limitOk && /\[\d+\]/.test(content)) right++;
    else if (wrong.length < show) wrong.push(`Q: ${row.question} | G: ${row.golds[0]}\nA: ${content.slice(0, 500)}\n`);
  }
  const inPassages = rows.filter((r) => r.category === 'answerable' && r.passages.some((p) => containsGold(p.text, r.golds, r.language))).length;
  process.stdout.write(`${wrong.join('\n')}\nanswerable ${right}/${total} = ${(right / total).toFixed(4)}; gold in passages ${(inPassages / total).toFixed(4)}; too long ${long}; ${(performance.now() - started).toFixed(0)} ms\n`);
}

/** The extractive model's answer to a dumped question, read as the model reads it: in the first passage's language. */
async function offlineAnswerer(): Promise<(row: Dumped) => string> {
  const rarity = rarityFromRanks(loadWordRanks());
  const analyzer = await loadTextAnalyzer();
  return (row) => {
    const passages = row.passages.map((p, i) => ({ index: i + 1, text: p.text }));
    const language = analyzer.detectLanguage(passages[0]?.text.slice(0, 256) ?? row.question);
    const read = termReader((text) => analyzer.tokens(text, language));
    return extractAnswer({ messages: [{ role: 'user', content: row.question }], passages }, { read, rarity }).content;
  };
}

/** The benchmark's length limit: 80 words for SQuAD's English, 600 characters otherwise. */
const withinLimit = (content: string, row: Dumped, file: string) =>
  row.language === 'en' && file.includes('squad') ? wordCount(content) <= 80 : content.length <= 600;

/** Per threshold: answerable questions answered right, and questions no document covers refused, over the dumps given. */
async function tradeoff(files: string[]) {
  const answer = await offlineAnswerer();
  const table: Record<string, Record<string, number>> = {};
  for (const file of files) {
    const rows = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Dumped);
    const name = file.replace(/^.*\/|\.jsonl$/g, '');
    for (const threshold of [0, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6]) {
      let answered = 0;
      let refused = 0;
      let answerable = 0;
      let uncovered = 0;
      for (const row of rows) {
        const pass = row.coverage >= threshold;
        if (row.category === 'answerable') {
          answerable++;
          if (!pass) continue;
          const content = answer(row);
          if (withinLimit(content, row, file) && containsGold(content, row.golds, row.language)) answered++;
        } else if (row.category === 'offtopic') {
          uncovered++;
          if (!pass) refused++;
        }
      }
      table[`${name} answered`] = { ...table[`${name} answered`], [threshold]: Number((answered / answerable).toFixed(3)) };
      if (uncovered > 0) table[`${name} offtopic refused`] = { ...table[`${name} offtopic refused`], [threshold]: Number((refused / uncovered).toFixed(3)) };
    }
  }
  console.table(table);
}

const [command, a, b, ...rest] = process.argv.slice(2);
if (command === 'dump') await dump(a!, b!);
else if (command === 'score') await score(a!, Number(rest[0] === '--show' ? rest[1] : b === '--show' ? rest[0] : 0));
else if (command === 'tradeoff') await tradeoff(process.argv.slice(3));
else throw new Error('usage: answer-fit.ts dump <suite> <file> | score <file> [--show N] | tradeoff <file>…');
