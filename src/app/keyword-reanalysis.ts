import type { KnowledgeBaseDoc } from '../../projections/knowledge-bases/index.ts';
import { underHeadings } from '../domain/retrieval/passage-text.ts';
import type { KeywordIndex } from '../ports/keyword-index.ts';
import type { PassageDocument, PassageStore } from '../ports/passage-store.ts';
import type { ReadModelStore } from '../ports/read-models.ts';

export type ReanalysisReport = { documents: number; chunks: number };

/** Passages read per call: a document's chunks come in pages of this many. */
const PASSAGE_PAGE = 500;

/**
 * The keyword index stores analysed terms, not text: when the analyzer changes (another version,
 * or a data directory from before the shared analyzer), its terms no longer meet today's queries.
 * Each stale document is analysed again from its passages, which hold every indexed chunk's text
 * and heading path, in its knowledge base's pinned language, then the index is marked current.
 * Upserts replace chunk by chunk, so an interrupted run simply starts over on the next open.
 * Null when the index was already current.
 */
export async function reanalyseKeywords(opts: { keywords: KeywordIndex; passages: PassageStore; readModels: ReadModelStore; pageSize?: number }): Promise<ReanalysisReport | null> {
  const { keywords, passages, readModels, pageSize = 100 } = opts;
  const report: ReanalysisReport = { documents: 0, chunks: 0 };
  let stale = false;
  for (let after: PassageDocument | null = null; ; ) {
    const page = await keywords.stale(after, pageSize);
    if (page.length === 0) break;
    stale = true;
    for (const document of page) {
      report.chunks += await reanalyse(keywords, passages, readModels, document);
      report.documents += 1;
      after = document;
    }
  }
  if (!stale) return null;
  await keywords.markAnalyzed();
  return report;
}

async function reanalyse(keywords: KeywordIndex, passages: PassageStore, readModels: ReadModelStore, { namespace, documentId }: PassageDocument) {
  const kb = await readModels.get<KnowledgeBaseDoc>('knowledge_bases', namespace);
  const language = kb?.settings.language;
  let chunks = 0;
  for (let after: number | undefined; ; ) {
    const page = await passages.listByDocument(namespace, documentId, { after, limit: PASSAGE_PAGE });
    if (page.length === 0) break;
    const docs = page.map((p) => ({ id: p.chunkId, documentId, text: underHeadings(p.headingPath, p.text) }));
    await keywords.upsert(namespace, docs, { language });
    chunks += docs.length;
    after = page.at(-1)!.index;
    if (page.length < PASSAGE_PAGE) break;
  }
  return chunks;
}
