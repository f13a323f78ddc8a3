import type { DocumentDoc } from '../../../projections/documents/index.ts';
import type { Box } from '../../domain/document/box.ts';
import type { Passage } from '../../ports/passage-store.ts';
import type { ReadModelStore } from '../../ports/read-models.ts';
import type { PassageCache } from './passage-cache.ts';
import { type Ranked, scoreOf } from './stages.ts';

export type StageScores = { vector: number | null; keyword: number | null; graph: number | null; fused: number | null; rerank: number | null };

/** A result as search, chat and workflows present it: the chunk, where it came from, and its scores. */
export type SearchHit = {
  chunkId: string;
  documentId: string;
  knowledgeBaseId: string;
  source: string;
  page: number;
  paragraph: string;
  headingPath: string[];
  /** The chunk's lines on its page (see Box); empty for formats without layout. */
  boxes: Box[];
  /** Where the chunk starts in its page's text (its blocks joined by newlines), as the chunk list says. */
  charStart: number;
  score: number;
  scores: StageScores;
};

/** A few spare candidates cover hits dropped because their document was deleted meanwhile. */
const SPARE = 5;

/**
 * The first `topK` of the ranking as hits. A document's chunks may outlive it in the indexes for a
 * moment (the indexer drops them after the projector dropped the document), so one read of the hit
 * documents keeps those out; it also names passages indexed before names were kept.
 */
export async function presentHits(ranked: readonly Ranked[], topK: number, passages: PassageCache, readModels: ReadModelStore): Promise<SearchHit[]> {
  const chosen = ranked.slice(0, topK + SPARE);
  const found = await passages.get(chosen.map((r) => r.candidate.id));
  const kept = chosen.filter((r) => found.has(r.candidate.id));
  const documents = await readModels.getMany<DocumentDoc>('documents', [...new Set(kept.map((r) => r.candidate.documentId))]);
  const hits: SearchHit[] = [];
  for (const r of kept) {
    const document = documents.get(r.candidate.documentId);
    if (document) hits.push(hitOf(r, found.get(r.candidate.id)!, document));
  }
  return hits.slice(0, topK);
}

function hitOf({ candidate: c, rerank }: Ranked, passage: Passage, document: DocumentDoc): SearchHit {
  return {
    chunkId: c.id,
    documentId: c.documentId,
    knowledgeBaseId: document.knowledge_base_id,
    source: passage.documentName ?? document.name,
    page: passage.page,
    paragraph: passage.text,
    headingPath: passage.headingPath,
    boxes: passage.boxes ?? [],
    charStart: passage.charStart,
    score: round(scoreOf({ candidate: c, rerank })),
    scores: {
      vector: roundOrNull(c.scores.vector),
      keyword: roundOrNull(c.scores.keyword),
      graph: roundOrNull(c.scores.graph),
      fused: round(c.fused),
      rerank: roundOrNull(rerank ?? undefined),
    },
  };
}

const round = (v: number) => Math.round(v * 10_000) / 10_000;
const roundOrNull = (v: number | undefined) => (v === undefined ? null : round(v));
