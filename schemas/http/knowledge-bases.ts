import { z } from 'zod';
import { KnowledgeBaseSettingsPatch } from '../knowledge-base-settings.ts';
import { KnowledgeBaseDoc, KnowledgeBaseTotals } from '../read-models/knowledge-bases.ts';

const name = z.string().trim().min(1).max(200);
const description = z.string().max(2000).nullable();

export const CreateKnowledgeBaseBody = z.strictObject({
  name,
  description: description.optional(),
  settings: KnowledgeBaseSettingsPatch.optional(),
});

export const UpdateKnowledgeBaseBody = z
  .strictObject({ name: name.optional(), description: description.optional(), settings: KnowledgeBaseSettingsPatch.optional() })
  .refine((b) => b.name !== undefined || b.description !== undefined || b.settings !== undefined, {
    message: 'give at least one of name, description or settings',
  });

const stored = KnowledgeBaseDoc.shape;

/**
 * A re-index (POST /v1/knowledge-bases/{kb_id}/reindex) as the API shows it: its state and progress.
 * Inline, not a named component: the response checks (test/helpers/openapi-api.ts) and clients
 * read a knowledge base's body without following a reference nested inside it.
 */
export const Reindex = z.object({
    object: z.literal('knowledge_base.reindex'),
    id: z.string(),
    knowledge_base_id: z.string(),
    status: z
      .enum(['queued', 'running', 'succeeded', 'failed'])
      .describe('queued: asked for, no worker has started it; running: documents being re-embedded; succeeded or failed: finished (a new request may follow)'),
    embedding_model: z.string().describe('The model the documents are re-embedded with: the knowledge base’s settings.embedding_model when it was asked for'),
    done: z.int().describe('Ready documents re-embedded so far'),
    total: z.int().nullable().describe('Ready documents when the run started (null while queued); documents ready later are re-embedded too, so done may pass it'),
    chunks: z.int().describe('Chunks re-embedded so far'),
    requested_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable().describe('Why it failed (status failed), else null'),
});
export type Reindex = z.infer<typeof Reindex>;

/** A knowledge base as the API shows it: the read model's public fields with its totals, in the order clients have always seen. */
export const KnowledgeBase = z.object({
  id: stored.id,
  object: stored.object,
  name: stored.name,
  description: stored.description,
  settings: stored.settings,
  ...KnowledgeBaseTotals.shape,
  reindex: Reindex.nullable().describe('The last re-index asked for over the API, with its progress; null: none'),
  created_at: stored.created_at,
  updated_at: stored.updated_at,
});
export type KnowledgeBase = z.infer<typeof KnowledgeBase>;
