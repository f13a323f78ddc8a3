// SQuAD-format benchmark data (SQuAD 2.0, XQuAD) from ../shared/data/bench, resolved from this
// checkout as bench/scifact.ts does, and how an article becomes one uploaded Markdown document.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DATA_DIR = join(fileURLToPath(new URL('..', import.meta.url)), '..', 'shared', 'data', 'bench');

/** Fit (tuning) or held-out (reporting) half: articles alternate, so both halves see every kind of topic. */
export type Split = 'fit' | 'held_out';
export const splitOf = (articleIndex: number): Split => (articleIndex % 2 === 0 ? 'fit' : 'held_out');

export type Question = { id: string; question: string; golds: string[]; impossible: boolean };
export type Article = { title: string; paragraphs: string[]; questions: Question[] };

type SquadJson = {
  data: {
    title: string;
    paragraphs: { context: string; qas: { id: string; question: string; is_impossible?: boolean; answers: { text: string }[] }[] }[];
  }[];
};

/** Articles of a SQuAD v1 or v2 file, in file order (which fixes the split). */
export function loadSquadArticles(path: string): Article[] {
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as SquadJson;
  return parsed.data.map((a) => ({
    title: a.title,
    paragraphs: a.paragraphs.map((p) => p.context),
    questions: a.paragraphs.flatMap((p) =>
      p.qas.map((q) => ({ id: q.id, question: q.question, golds: q.answers.map((x) => x.text), impossible: q.is_impossible === true })),
    ),
  }));
}

export type OffTopicQuestion = { id: string; article: string; question: string; split: Split };

/** Off-topic questions, split by their article's order of first appearance in the file. */
export function loadOffTopic(path: string): OffTopicQuestion[] {
  const articles: string[] = [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const q = JSON.parse(line) as { id: string; article: string; question: string };
      if (!articles.includes(q.article)) articles.push(q.article);
      return { ...q, split: splitOf(articles.indexOf(q.article)) };
    });
}

/** One Markdown document per article: its title as the heading, its paragraphs apart. */
export function articleUpload(article: Article) {
  const title = article.title.replace(/_/g, ' ');
  return { name: `${article.title}.md`, text: `# ${title}\n\n${article.paragraphs.join('\n\n')}\n` };
}

export const missing = (paths: string[]) => paths.filter((p) => !existsSync(p));
