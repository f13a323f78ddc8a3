import { z } from 'zod';
import { KnowledgeBaseSettings, KnowledgeBaseSettingsPatch } from '../knowledge-base-settings.ts';

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

export const KnowledgeBase = z.object({
  id: z.string(),
  object: z.literal('knowledge_base'),
  name: z.string(),
  description: z.string().nullable(),
  settings: KnowledgeBaseSettings,
  document_count: z.int(),
  chunk_count: z.int(),
  created_at: z.string(),
  updated_at: z.string(),
});
