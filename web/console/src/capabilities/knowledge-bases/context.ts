import { useOutletContext } from 'react-router';
import type { Answer } from '../../api/client.ts';

export type KnowledgeBase = Answer<'/v1/knowledge-bases/{kb_id}', 'get'>;

/** What the knowledge base's layout hands to the screens under it (documents, retrieval testing, settings). */
export type KnowledgeBaseContext = {
  knowledgeBase: KnowledgeBase;
  /** After a screen changed it (settings saved): the heading and the other tabs show the new one. */
  setKnowledgeBase(next: KnowledgeBase): void;
};

/** The knowledge base the current /knowledge-bases/:kbId screen is about, loaded once by its layout. */
export function useKnowledgeBase(): KnowledgeBaseContext {
  return useOutletContext<KnowledgeBaseContext>();
}
