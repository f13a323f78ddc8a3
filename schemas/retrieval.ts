import { z } from 'zod';

/** The recalls a search can run; a knowledge base's settings enable some of them (settings.recall). */
export const Recall = z.enum(['vector', 'keyword', 'graph']);
export type Recall = z.infer<typeof Recall>;

/** What a search, a chat or a workflow's retrieval node asks for: one recall, or hybrid (the ones the knowledge base enables, fused). */
export const SearchMode = z.enum(['hybrid', ...Recall.options]);
export type SearchMode = z.infer<typeof SearchMode>;
