// Fits the offline answerer's sentence ranker (RANKER_WEIGHTS in src/domain/answer/sentence-scoring.ts)
// on fit-half dumps made by `bench/answer-fit.ts dump` (even articles only, so held-out questions
// never shape it): a listwise softmax over each question's sentences, the ones holding a gold
// answer as the targets, plain gradient descent from the current weights.
//   node --import tsx bench/ranker-fit.ts <dump.jsonl>…   prints the weights and first / first-two accuracy
import { readFileSync } from 'node:fs';
import { loadWordRanks } from '../src/adapters/local/hashing-embedder.ts';
import { loadTextAnalyzer } from '../src/adapters/text/analyzer.ts';
import { passageSentences } from '../src/domain/answer/passage-sentences.ts';
import { analyseQuestion } from '../src/domain/answer/question.ts';
import { rarityFromRanks } from '../src/domain/answer/rarity.ts';
import { FEATURES, RANKER_WEIGHTS, sentenceFeatures } from '../src/domain/answer/sentence-scoring.ts';
import { termReader } from '../src/domain/answer/words.ts';
import { containsGold } from './answer-scoring.ts';

type Question = { x: number[][]; y: number[] };
const ITERATIONS = 600;
const LEARNING_RATE = 0.5;
const L2 = 1e-3;

/** Each answerable question with a gold-holding sentence: its sentences' features and which hold the answer. */
async function questions(files: string[]): Promise<Question[]> {
  const rarity = rarityFromRanks(loadWordRanks());
  const analyzer = await loadTextAnalyzer();
  const out: Question[] = [];
  for (const file of files) {
    for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
      const row = JSON.parse(line) as { category: string; question: string; golds: string[]; language: string; passages: { text: string }[] };
      if (row.category !== 'answerable') continue;
      const passages = row.passages.map((p, i) => ({ index: i + 1, text: p.text }));
      const language = analyzer.detectLanguage(passages[0]?.text.slice(0, 256) ?? row.question);
      const read = termReader((text) => analyzer.tokens(text, language));
      const scored = sentenceFeatures(analyseQuestion([{ role: 'user', content: row.question }], read), passageSentences(passages), rarity, read);
      const y = scored.map((s) => (containsGold(s.sentence.text, row.golds, row.language) ? 1 : 0));
      if (y.includes(1)) out.push({ x: scored.map((s) => s.features), y });
    }
  }
  return out;
}

const dot = (w: readonly number[], x: readonly number[]) => x.reduce((sum, v, k) => sum + v * w[k]!, 0);

/** One step of gradient descent on the mean of −log(probability mass on the gold sentences). */
function step(w: number[], data: readonly Question[]): number[] {
  const gradient = new Array<number>(w.length).fill(0);
  for (const { x, y } of data) {
    const scores = x.map((f) => dot(w, f));
    const top = Math.max(...scores);
    const p = scores.map((s) => Math.exp(s - top));
    const z = p.reduce((a, b) => a + b, 0);
    const gold = p.reduce((a, v, i) => a + (y[i] ? v : 0), 0);
    x.forEach((f, i) => {
      const pull = p[i]! / z - (y[i] ? p[i]! / gold : 0);
      for (let k = 0; k < w.length; k++) gradient[k]! += pull * f[k]!;
    });
  }
  return w.map((v, k) => v - LEARNING_RATE * (gradient[k]! / data.length + L2 * v));
}

/** Share of questions whose first (or first two) ranked sentences hold a gold answer. */
function accuracy(w: readonly number[], data: readonly Question[], picks: number): number {
  let hit = 0;
  for (const { x, y } of data) {
    const order = x.map((f, i) => [dot(w, f), i] as const).sort((a, b) => b[0] - a[0]);
    if (order.slice(0, picks).some(([, i]) => y[i] === 1)) hit++;
  }
  return hit / data.length;
}

const data = await questions(process.argv.slice(2));
let w = [...RANKER_WEIGHTS];
const before = { first: accuracy(w, data, 1), first_two: accuracy(w, data, 2) };
for (let i = 0; i < ITERATIONS; i++) w = step(w, data);
const weights = Object.fromEntries(FEATURES.map((name, k) => [name, Number(w[k]!.toFixed(3))]));
process.stdout.write(`${JSON.stringify({ questions: data.length, before, after: { first: accuracy(w, data, 1), first_two: accuracy(w, data, 2) }, weights }, null, 2)}\n`);
