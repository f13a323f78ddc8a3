import { z } from 'zod';
import { PageBox } from '../events/document.ts';

const metadataValue = z.union([z.string(), z.number(), z.boolean()]);

export const SearchFilter = z.strictObject({
  document_ids: z.array(z.string().min(1).max(200)).max(1000).optional(),
  /** Each key must equal the value, or one of the values when a list is given. */
  metadata: z.record(z.string().min(1).max(100), z.union([metadataValue, z.array(metadataValue).min(1).max(100)])).optional(),
});

export const SearchBody = z.strictObject({
  query: z.string().trim().min(1, 'must not be empty').max(8000),
  top_k: z.int().min(1).max(100).optional(),
  score_threshold: z.number().min(0).max(1).optional(),
  mode: z.enum(['hybrid', 'vector', 'keyword', 'graph']).optional(),
  rerank: z.boolean().optional(),
  filter: SearchFilter.optional(),
  explain: z.boolean().optional(),
});

const stageScore = z.number().nullable();

export const SearchResult = z.object({
  object: z.literal('search_result'),
  chunk_id: z.string(),
  document_id: z.string(),
  source: z.string(),
  page: z.int(),
  paragraph: z.string(),
  heading_path: z.array(z.string()),
  boxes: z
    .array(PageBox)
    .describe('The chunk’s lines on `page`, as fractions of the page width and height from its top left (`start`: the line’s offset in `paragraph`); empty for formats without page layout'),
  score: z.number(),
  scores: z
    .object({ vector: stageScore, keyword: stageScore, graph: stageScore, fused: stageScore, rerank: stageScore })
    .optional()
    .describe('Each stage’s 0..1 score, when explain is true'),
});

export const SearchResponse = z.object({
  object: z.literal('list'),
  data: z.array(SearchResult),
  has_more: z.literal(false),
  knowledge_base_id: z.string(),
  mode: z.enum(['hybrid', 'vector', 'keyword', 'graph']),
  rerank: z.boolean(),
  coverage: z.number().describe('The share of the query (terms weighed by rarity in the knowledge base) the best of the first passages holds, 0..1'),
  coverage_terms: z
    .array(z.object({ term: z.string(), document_frequency: z.int(), held: z.boolean() }))
    .optional()
    .describe('With explain: each analysed query term, how many chunks of the knowledge base hold it, and whether the passage that gives the coverage does'),
  answerable: z.boolean().describe('Whether coverage reaches the knowledge base’s settings.answerability.min_coverage: what chat would answer rather than call "not covered"'),
});
