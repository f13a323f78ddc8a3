import { currentVersionOf, type DocumentDoc, versionsOf } from '../../../projections/documents/index.ts';
import { versionAt } from '../../domain/document/as-of.ts';
import type { Box } from '../../domain/document/box.ts';
import { holdsVersion, type Passage } from '../../ports/passage-store.ts';
import type { ReadModelStore } from '../../ports/read-models.ts';
import type { PassageCache } from './passage-cache.ts';
import { type Ranked, scoreOf } from './stages.ts';

export type StageScores = { vector: number | null; keyword: number | null; graph: number | null; fused: number | null; rerank: number | null };

/** A result as search, chat and workflows present it: the chunk, where it came from, and its scores. */
export type SearchHit = {
  chunkId: string;
  documentId: string;
  knowledgeBaseId: string;
  /** The version of its document the chunk was retrieved from: the one answering (issue 44). */
  documentVersion: number;
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
 *
 * The same read keeps every route current (issue 44): a hit is shown only when its passage belongs
 * to its document's current version, so a new version's own chunks wait until it is indexed and a
 * replaced version's leave the moment it is, before the indexer has removed them. Candidates are
 * read in rounds of topK + SPARE, so chunks held back this way never shorten the answer while the
 * ranking has more; in the usual case (no version in flight) there is one round, as before.
 *
 * With `asOf` (an ISO time) the version kept is the one current then (its validity interval in the
 * read model), not the one current now: the same read, so an as_of search costs what a search does.
 */
export async function presentHits(ranked: readonly Ranked[], topK: number, passages: PassageCache, readModels: ReadModelStore, asOf?: string): Promise<SearchHit[]> {
  const hits: SearchHit[] = [];
  const documents = new Map<string, DocumentDoc | null>();
  for (let start = 0; hits.length < topK && start < ranked.length; start += topK + SPARE) {
    const chosen = ranked.slice(start, start + topK + SPARE);
    const found = await passages.get(chosen.map((r) => r.candidate.id));
    const kept = chosen.filter((r) => found.has(r.candidate.id));
    const unread = [...new Set(kept.map((r) => r.candidate.documentId))].filter((id) => !documents.has(id));
    if (unread.length > 0) {
      const read = await readModels.getMany<DocumentDoc>('documents', unread);
      for (const id of unread) documents.set(id, read.get(id) ?? null);
    }
    for (const r of kept) {
      const document = documents.get(r.candidate.documentId);
      const passage = found.get(r.candidate.id)!;
      if (!document) continue;
      const version = asOf === undefined ? currentVersionOf(document) : versionAt(versionsOf(document), asOf);
      if (holdsVersion(passage, version)) hits.push(hitOf(r, passage, document, version));
    }
  }
  return hits.slice(0, topK);
}

function hitOf({ candidate: c, rerank }: Ranked, passage: Passage, document: DocumentDoc, version: number): SearchHit {
  return {
    chunkId: c.id,
    documentId: c.documentId,
    knowledgeBaseId: document.knowledge_base_id,
    documentVersion: version,
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
