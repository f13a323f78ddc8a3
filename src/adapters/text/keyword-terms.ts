import type { Analyzer } from '../../ports/analyzer.ts';
import type { KeywordDocument } from '../../ports/keyword-index.ts';

/** Enough of a document to name its language: some 40 words, on which the detector is as sure as on a page. */
const SAMPLE_CHARS = 256;

const pinned = (language?: string) => (language === undefined || language === 'auto' ? undefined : language);

/**
 * Each document's chunks analysed in one language: the pinned one, or the one detected on the
 * start of the document's first chunks in the batch. One detection per document, not per chunk:
 * it costs about as much as analysing a chunk, and a document is nearly always in one language,
 * which also keeps a quotation in another language from stemming a chunk apart from its siblings.
 */
export function analyseDocuments(analyzer: Analyzer, docs: readonly KeywordDocument[], language?: string): string[][] {
  const fixed = pinned(language);
  const languages = new Map<string, string>();
  if (fixed === undefined) {
    const samples = new Map<string, string>();
    for (const doc of docs) {
      const sample = samples.get(doc.documentId) ?? '';
      if (sample.length < SAMPLE_CHARS) samples.set(doc.documentId, sample === '' ? doc.text : `${sample}\n${doc.text}`);
    }
    for (const [documentId, sample] of samples) languages.set(documentId, analyzer.detectLanguage(sample.slice(0, SAMPLE_CHARS)));
  }
  return docs.map((doc) => analyzer.terms(doc.text, fixed ?? languages.get(doc.documentId)));
}

/** A query's distinct terms, in the order they first appear, with the word each came from. */
export function queryWords(analyzer: Analyzer, text: string, language?: string): { term: string; word: string }[] {
  const seen = new Map<string, string>();
  for (const token of analyzer.tokens(text, pinned(language))) if (!token.stop && !seen.has(token.term)) seen.set(token.term, token.word);
  return [...seen].map(([term, word]) => ({ term, word }));
}

/** A query's distinct terms, in the order they first appear. */
export const queryTerms = (analyzer: Analyzer, text: string, language?: string): string[] => [...new Set(analyzer.terms(text, pinned(language)))];
