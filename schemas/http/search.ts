import { z } from 'zod';
import { PageBox } from '../events/document.ts';
import { SearchMode } from '../retrieval.ts';
import { AsOfField } from './as-of.ts';
import { KnowledgeBaseIds, oneKnowledgeBaseField, SearchFilter } from './filter.ts';

/** What a search result may carry beyond its ids, source, page and score (the body's include). */
export const SEARCH_INCLUDE = ['paragraph', 'heading_path', 'boxes', 'scores', 'coverage_terms'] as const;
export type SearchInclude = (typeof SEARCH_INCLUDE)[number];

export const SearchBody = z.strictObject({
  query: z.string().trim().min(1, 'must not be empty').max(8000),
  top_k: z.int().min(1).max(100).optional(),
  score_threshold: z.number().min(0).max(1).optional(),
  mode: SearchMode.optional(),
  rerank: z.boolean().optional(),
  filter: SearchFilter.optional(),
  explain: z.boolean().optional(),
  as_of: AsOfField.optional(),
  include: z
    .array(z.enum(SEARCH_INCLUDE))
    .max(SEARCH_INCLUDE.length)
    .optional()
    .describe(
      'The optional parts of the answer to send: the passage (paragraph), heading_path, boxes, and the explain data (scores, coverage_terms). Without it: paragraph, heading_path and boxes, plus scores and coverage_terms when explain is true. [] sends only ids, source, page and score (about 220 bytes a result, against 2.3 KB with a 512-token passage), for clients that fetch passages later or only rank',
    ),
});
export type SearchBody = z.infer<typeof SearchBody>;

/** POST /v1/search: the same search over one knowledge base or several. */
export const SearchAcrossBody = SearchBody.extend({
  knowledge_base_id: z.string().min(1).max(200).optional(),
  knowledge_base_ids: KnowledgeBaseIds.optional(),
}).superRefine((body, ctx) => {
  oneKnowledgeBaseField(body, ctx);
  if (body.knowledge_base_id === undefined && body.knowledge_base_ids === undefined) {
    ctx.addIssue({ code: 'custom', path: ['knowledge_base_ids'], message: 'name the knowledge bases to search (or knowledge_base_id for one)' });
  }
});

const stageScore = z.number().nullable();

export const SearchResult = z.object({
  object: z.literal('search_result'),
  chunk_id: z.string(),
  document_id: z.string(),
  document_version: z.int().min(1).describe('The version of the document the passage belongs to: the one answering'),
  knowledge_base_id: z.string(),
  source: z.string(),
  page: z.int(),
  paragraph: z.string().optional().describe('The passage; left out when include does not name it'),
  heading_path: z.array(z.string()).optional().describe('The headings the passage sits under; left out when include does not name it'),
  boxes: z
    .array(PageBox)
    .optional()
    .describe(
      'The chunk’s lines on `page`, as fractions of the page width and height from its top left (`start`: the line’s offset in `paragraph`); empty for formats without page layout; left out when include does not name it',
    ),
  score: z.number(),
  scores: z
    .object({ vector: stageScore, keyword: stageScore, graph: stageScore, fused: stageScore, rerank: stageScore })
    .optional()
    .describe('Each stage’s 0..1 score, when explain is true (or include names scores)'),
});

export const SearchResponse = z.object({
  object: z.literal('list'),
  data: z.array(SearchResult),
  has_more: z.literal(false),
  knowledge_base_id: z.string(),
  mode: SearchMode,
  rerank: z.boolean(),
  coverage: z.number().describe('The share of the query (terms weighed by rarity in the knowledge base) the best of the first passages holds, 0..1'),
  coverage_terms: z
    .array(
      z.object({
        term: z.string().describe('The analysed form the indexes compare (folded, stemmed: "tracemonkei")'),
        word: z.string().describe('The query’s word it came from, as typed ("TraceMonkey"): what to show people'),
        document_frequency: z.int(),
        held: z.boolean(),
      }),
    )
    .optional()
    .describe('With explain (or include naming coverage_terms): each analysed query term, the word it came from, how many chunks of the knowledge base hold it, and whether the passage that gives the coverage does'),
  answerable: z.boolean().describe('Whether coverage reaches the knowledge base’s settings.answerability.min_coverage: what chat would answer rather than call "not covered"'),
  warnings: z
    .array(z.object({ code: z.enum(['vector_recall_unavailable']), message: z.string() }))
    .optional()
    .describe(
      'Present only when the results were found without part of the search: vector_recall_unavailable when the embedding provider could not be used (unreachable, timing out, refusing its key) and keyword and graph recall answered alone; the message names the provider’s failure',
    ),
});

/** POST /v1/search's answer: coverage and answerable are the best knowledge base's (each weighs terms by its own statistics). */
export const SearchAcrossResponse = SearchResponse.omit({ knowledge_base_id: true }).extend({
  knowledge_base_ids: z.array(z.string()).describe('The knowledge bases searched, as asked'),
});
