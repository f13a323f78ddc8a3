import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SCIFACT_DIR = join(fileURLToPath(new URL('..', import.meta.url)), '..', 'shared', 'data', 'bench', 'scifact');

export type SciFact = {
  corpus: { id: string; title: string; text: string }[];
  queries: { id: string; text: string }[];
  /** query id → relevant corpus ids */
  qrels: Map<string, Set<string>>;
};

export const hasSciFact = () => existsSync(join(SCIFACT_DIR, 'corpus.jsonl'));

/** BEIR SciFact as shipped in ../shared/data: the corpus, and the train queries that have judgements. */
export function loadSciFact(dir = SCIFACT_DIR): SciFact {
  const lines = (file: string) => readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean);
  const corpus = lines('corpus.jsonl').map((l) => {
    const d = JSON.parse(l) as { _id: string; title: string; text: string };
    return { id: d._id, title: d.title, text: d.text };
  });
  const qrels = new Map<string, Set<string>>();
  for (const line of lines('qrels/train.tsv').slice(1)) {
    const [q, doc, score] = line.split('\t');
    if (Number(score) > 0) qrels.set(q!, (qrels.get(q!) ?? new Set()).add(doc!));
  }
  const queries = lines('queries.jsonl')
    .map((l) => JSON.parse(l) as { _id: string; text: string })
    .filter((q) => qrels.has(q._id))
    .map((q) => ({ id: q._id, text: q.text }));
  return { corpus, queries, qrels };
}

/** How the service ingests a SciFact abstract: one text document named after its corpus id. */
export const sciFactUpload = (doc: { id: string; title: string; text: string }) => ({ name: `${doc.id}.txt`, text: `${doc.title}\n\n${doc.text}` });

/** Binary-relevance nDCG@k of a ranked list of document ids. */
export function ndcgAt(ranked: readonly string[], relevant: ReadonlySet<string>, k = 10): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => {
    if (relevant.has(id)) dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return ideal === 0 ? 0 : dcg / ideal;
}

export function recallAt(ranked: readonly string[], relevant: ReadonlySet<string>, k = 100): number {
  const hits = ranked.slice(0, k).filter((id) => relevant.has(id)).length;
  return relevant.size === 0 ? 0 : hits / relevant.size;
}
