import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import { answerabilitySettings, pinnedLanguage } from '../../../schemas/knowledge-base-settings.ts';
import { passageSentences } from '../../domain/answer/passage-sentences.ts';
import { type PassageTerms, questionCoverage } from '../../domain/retrieval/coverage.ts';
import type { Analyzer } from '../../ports/analyzer.ts';
import type { KeywordIndex } from '../../ports/keyword-index.ts';
import type { SearchHit } from './hits.ts';

/** Whether the retrieved passages can answer the question, decided before any model is called. */
export type Answerability = { coverage: number; answerable: boolean; terms?: CoveredTerm[] };

/**
 * Why: each question term, how many chunks hold it, and whether the best sentence (or its headings)
 * does. `term` is the analysed (stemmed) form the indexes compare; `word` the question's word it
 * came from, as the user typed it ("TraceMonkey" for "tracemonkei"), for people to read.
 */
export type CoveredTerm = { term: string; word: string; document_frequency: number; held: boolean };

/**
 * Words with which a question points at the document rather than at what it says ("What greeting
 * is written on the scanned image?"): a passage does not hold them, and should not need to.
 * Leaving them out raised the answerable questions let through at 97 % of off-topic refused on
 * the fit half of SQuAD 2.0 (84.4 → 85.3 %), and spares paraphrased questions about documents.
 */
const QUESTION_FRAME: Record<string, string> = {
  en:
    'document documents file files image images picture photo photograph scan scanned page pages text pdf sheet spreadsheet workbook slide slides paper ' +
    'mention mentioned mentions according written write say says said state states stated describe described describes list listed lists show shown shows call called named name known refer refers referred ' +
    // How a question asks for a quantity or a frequency ("How many days …", "How much …", "How
    // often …"): the passage answers with the number ("14 days"), never with these words.
    'many much often',
  de: 'dokument datei bild seite text tabelle folie erwähnt laut geschrieben steht genannt heißt',
  fr: 'document fichier image page texte tableau diapositive mentionné selon écrit appelé nommé',
  es: 'documento archivo imagen página texto tabla diapositiva mencionado según escrito llamado',
};

/**
 * Chinese and Japanese are indexed as character pairs, and a question's pairs that take in a
 * question word or a particle ("多少", "了多", "的防") are not what a passage must hold: on the fit
 * half of XQuAD zh, leaving them out let through 59 % of the questions at the default, not 26 %.
 */
const FUNCTION_CHARACTER = /[什么哪谁多少几吗呢为何怎样了的是在有个和与被把从到对于也就都而及或之其这那们はがのをにでと何誰か]/u;

/** The passages a prompt would hold at most; coverage beyond them could not reach the answer. */
const PASSAGES_READ = 8;

/**
 * The gate chat, /v1/chat, workflows' knowledge retrieval and search share: the question is
 * answerable when one of the best passages covers enough of it (domain/retrieval/coverage.ts),
 * weighing each of its terms by how rare it is in the whole knowledge base. `analyze` is the
 * keyword index's own analysis, so a passage's terms and the question's meet as in BM25.
 */
export function answerabilityGate(keywords: KeywordIndex, analyzer: Analyzer) {
  const frame = new Set(Object.entries(QUESTION_FRAME).flatMap(([language, words]) => analyzer.terms(words, language)));
  return async (kb: KnowledgeBaseDoc, query: string, hits: readonly SearchHit[]): Promise<Answerability> => {
    const { min_coverage } = answerabilitySettings(kb.settings);
    if (hits.length === 0) return { coverage: 0, answerable: false };
    const pinned = pinnedLanguage(kb.settings);
    const stats = await keywords.termStats(kb.id, query, { language: pinned });
    // The question's terms were analysed in its language; its passages are read in the same one, so the two meet.
    const language = pinned ?? analyzer.detectLanguage(query);
    const analyze = (text: string) => analyzer.terms(text, language);
    if (stats.terms.length === 0) return { coverage: 0, answerable: min_coverage === 0 };
    const passages = hits.slice(0, PASSAGES_READ).map((h) => passageTerms(h, analyze));
    const asked = stats.terms.filter((t) => !frame.has(t.term) && !FUNCTION_CHARACTER.test(t.term));
    const { coverage, held } = questionCoverage(asked.length > 0 ? asked : stats.terms, stats.documents, passages);
    const words = surfaceWords(analyzer, query, language);
    const terms = stats.terms.map((t) => ({ term: t.term, word: words.get(t.term) ?? t.term, document_frequency: t.documentFrequency, held: held.has(t.term) }));
    return { coverage: Math.round(coverage * 10_000) / 10_000, answerable: coverage >= min_coverage, terms };
  };
}

/** Each term of the question and the first word that gave it, as written (the analyzer's offsets are into the original text). */
function surfaceWords(analyzer: Analyzer, query: string, language: string): Map<string, string> {
  const words = new Map<string, string>();
  for (const token of analyzer.tokens(query, language)) if (!words.has(token.term)) words.set(token.term, query.slice(token.start, token.end));
  return words;
}

function passageTerms(hit: SearchHit, analyze: (text: string) => string[]): PassageTerms {
  const sentences = passageSentences([{ index: 0, text: hit.paragraph }]).map((s) => new Set(analyze(s.text)));
  return { heading: new Set(analyze(hit.headingPath.join(' '))), sentences };
}
