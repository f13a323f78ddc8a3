import type { Citation } from './chat-stream.ts';

/**
 * A citation as the screen shows it. A live answer has the API's whole citation (passage, quote,
 * boxes); one reopened from a stored conversation has only what its `file_citation` annotation
 * keeps (document, page, chunk), so those fields are optional.
 */
export type ShownCitation = Pick<Citation, 'index' | 'source' | 'page' | 'document_id' | 'knowledge_base_id'> & Partial<Pick<Citation, 'paragraph' | 'quote' | 'boxes' | 'chunk_id' | 'score'>> & {
  /** The version of the document the passage belongs to (absent from answers recorded before versions). */
  document_version?: number;
};

export type ChatMessage = {
  key: string;
  role: 'user' | 'assistant';
  content: string;
  citations: ShownCitation[];
  /** The live answer's completion id: feedback goes to /v1/chat/completions/{id}/feedback. */
  completionId?: string;
  /** A stored answer's item id: feedback goes through its conversation item. */
  itemId?: string;
  /** false: the knowledge base does not cover the question, and no model was asked. */
  answerable?: boolean;
  coverage?: number;
  streaming?: boolean;
};

/** Which citation of which answer the panel shows. */
export type CitationChoice = { messageKey: string; index: number };

let counter = 0;
export const messageKey = () => `m${++counter}`;

/** Only the citations the answer's text marks (while it streams, `citations` holds the whole context). */
export function citedOnly(message: ChatMessage): ShownCitation[] {
  const marked = new Set([...message.content.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])));
  return message.citations.filter((citation) => marked.has(citation.index));
}
