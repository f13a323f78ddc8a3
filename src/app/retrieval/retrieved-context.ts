import type { RetrievalWarning } from './recall-fallback.ts';
import { fitContext } from '../../domain/chat/prompt.ts';
import { underHeadings } from '../../domain/retrieval/passage-text.ts';
import { type Quote, quotesOf } from '../../domain/answer/quotes.ts';
import { boxesOfSpan, type Box } from '../../domain/document/box.ts';
import type { ContextPassage } from '../../ports/models.ts';
import type { Answerability } from './answerability.ts';
import type { SearchHit } from './hits.ts';

/** A passage the answer may cite: `index` is its marker, [1], [2] … */
export type Citation = {
  index: number;
  source: string;
  page: number;
  paragraph: string;
  document_id: string;
  /** The version of the document the chunk belongs to: the one that answered (issue 44). */
  document_version: number;
  /** The knowledge base the document belongs to (a chat may search several). */
  knowledge_base_id: string;
  chunk_id: string;
  score: number;
  heading_path: string[];
  /**
   * The span the citation points at, as offsets in its page's text (the chunk list's char_start
   * and char_end count the same way): the quote's when there is one, else the whole paragraph.
   */
  char_start: number;
  char_end: number;
  /** Where that span sits on `page`: the boxes of the lines it covers (see Box); empty for formats without layout. */
  boxes: Box[];
  /** The span of `paragraph` the answer rests on; null when the answer does not cite this passage (or before it is written). */
  quote?: Quote | null;
};

/** Where a cited chunk sits: its lines, and its start in the page's text. */
export type ChunkPlace = { boxes: readonly Box[]; charStart: number };

/**
 * The citation pointing at `quote`, or at its whole paragraph without one. The quote's lines are
 * found by their offsets; the chunk's boxes stand in where no line matches (a box list cut at its cap).
 */
export function pointAt(citation: Citation, chunk: ChunkPlace, quote: Quote | null): Citation {
  const { boxes, charStart } = chunk;
  if (!quote) return { ...citation, quote, char_start: charStart, char_end: charStart + citation.paragraph.length, boxes: [...boxes] };
  const lines = boxesOfSpan(boxes, quote.start, quote.end);
  return { ...citation, quote, char_start: charStart + quote.start, char_end: charStart + quote.end, boxes: lines.length ? lines : [...boxes] };
}

/**
 * The citations an answer makes: each with the span of its chunk the answer quotes (null for a
 * passage it does not cite), none when the answer cites nothing (a model saying the passages do
 * not hold the answer). Chat, /v1/chat and a workflow's run all cite through here, so a citation
 * is the same object wherever it comes from.
 */
export function quotedCitations(citations: Citation[], answer: string): Citation[] {
  if (!/\[\d+\]/.test(answer)) return [];
  const quotes = quotesOf(answer, new Map(citations.map((c) => [c.index, c.paragraph])));
  // Fresh from the retrieval, a citation still points at its whole chunk: its boxes and start are the chunk's.
  return citations.map((c) => pointAt(c, { boxes: c.boxes, charStart: c.char_start }, quotes.get(c.index) ?? null));
}

/**
 * The passages an answer cites: those its `[n]` markers name, each with its quote (null when no
 * sentence of it matches the citing statement), keeping its marker as `index`, so [2] stays 2
 * when [1] is not cited. Chat, /v1/chat, Responses, MCP and the landing page answer with these;
 * every passage the model was given goes beside them as the chat's `context`.
 */
export function citedPassages(context: Citation[], answer: string): Citation[] {
  const marked = markersOf(answer);
  return quotedCitations(context, answer).filter((c) => marked.has(c.index));
}

/** The passage numbers an answer's `[n]` markers name. */
export const markersOf = (answer: string): Set<number> => new Set([...answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])));

/**
 * What a retrieval gives its caller: the hits, whether they can answer the question, and those
 * that fit the prompt as numbered passages and their citations (none when they cannot answer).
 * `warnings`: what the hits were found without (a recall whose provider is down), when anything was.
 */
export type RetrievedContext = { hits: SearchHit[]; passages: ContextPassage[]; citations: Citation[]; warnings?: RetrievalWarning[] } & Answerability;

/**
 * The best hits that fit `maxTokens`, in rank order, numbered from 1: each as the model reads it
 * (the chunk under its headings) and as the client sees it cited. Chat, /v1/chat and the
 * knowledge_retrieval node all number and cite through here, so they cite alike. A budget of 0
 * asks for no context at all (search), which saves counting the passages' tokens; passages that
 * cannot answer the question give none either, so no model is asked to.
 */
export function contextOf(hits: SearchHit[], maxTokens: number, answerability: Answerability): RetrievedContext {
  if (maxTokens <= 0 || !answerability.answerable) return { hits, passages: [], citations: [], ...answerability };
  const chosen = fitContext(
    hits.map((hit) => ({ hit, text: underHeadings(hit.headingPath, hit.paragraph) })),
    maxTokens,
  );
  return {
    hits,
    ...answerability,
    passages: chosen.map(({ hit, text }, i) => ({ index: i + 1, text, source: hit.source, page: hit.page, headingEnd: text.length - hit.paragraph.length })),
    citations: chosen.map(({ hit }, i) => ({
      index: i + 1,
      source: hit.source,
      page: hit.page,
      paragraph: hit.paragraph,
      document_id: hit.documentId,
      document_version: hit.documentVersion,
      knowledge_base_id: hit.knowledgeBaseId,
      chunk_id: hit.chunkId,
      score: hit.score,
      heading_path: hit.headingPath,
      char_start: hit.charStart,
      char_end: hit.charStart + hit.paragraph.length,
      boxes: hit.boxes,
    })),
  };
}
