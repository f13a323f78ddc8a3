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

/** A knowledge base as the API shows it: the read model's public fields with its totals, in the order clients have always seen. */
export const KnowledgeBase = z.object({
  id: stored.id,
  object: stored.object,
  name: stored.name,
  description: stored.description,
  settings: stored.settings,
  ...KnowledgeBaseTotals.shape,
  created_at: stored.created_at,
  updated_at: stored.updated_at,
});
export type KnowledgeBase = z.infer<typeof KnowledgeBase>;
