import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import { answerabilitySettings } from '../../../schemas/knowledge-base-settings.ts';
import { bestCoverage } from '../../domain/retrieval/coverage.ts';
import { underHeadings } from '../../domain/retrieval/passage-text.ts';
import type { KeywordIndex } from '../../ports/keyword-index.ts';
import type { SearchHit } from './hits.ts';

/** Whether the retrieved passages can answer the question, decided before any model is called. */
export type Answerability = { coverage: number; answerable: boolean };

/** The passages a prompt would hold at most; coverage beyond them could not reach the answer. */
const PASSAGES_READ = 8;

/**
 * The gate chat, /v1/chat, workflows' knowledge retrieval and search share: the question is
 * answerable when one of the best passages covers enough of it (domain/retrieval/coverage.ts),
 * weighing each of its terms by how rare it is in the whole knowledge base. `analyze` is the
 * keyword index's own analysis, so a passage's terms and the question's meet as in BM25.
 */
export function answerabilityGate(keywords: KeywordIndex, analyze: (text: string) => string[]) {
  return async (kb: KnowledgeBaseDoc, query: string, hits: readonly SearchHit[]): Promise<Answerability> => {
    const { min_coverage } = answerabilitySettings(kb.settings);
    if (hits.length === 0) return { coverage: 0, answerable: false };
    const stats = await keywords.termStats(kb.id, query);
    if (stats.terms.length === 0) return { coverage: 0, answerable: min_coverage === 0 };
    const passages = hits.slice(0, PASSAGES_READ).map((h) => new Set(analyze(underHeadings(h.headingPath, h.paragraph))));
    const { coverage } = bestCoverage(stats.terms, stats.documents, passages);
    return { coverage: Math.round(coverage * 10_000) / 10_000, answerable: coverage >= min_coverage };
  };
}
