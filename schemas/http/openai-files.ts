import { z } from 'zod';
import { ListQuery } from './common.ts';

/** OpenAI's purposes, and any other a newer client sends: the purpose is stored and listed by, never acted on. */
export const FilePurpose = z.string().min(1).max(64).describe('What the file is for (assistants, user_data, batch, fine-tune, vision, evals …): stored as given');

export const OpenAiFile = z.object({
  id: z.string(),
  object: z.literal('file'),
  bytes: z.number().int(),
  created_at: z.number().int(),
  filename: z.string(),
  purpose: z.string(),
  status: z.literal('processed'),
  status_details: z.null(),
});

export const FileListQuery = ListQuery.extend({
  limit: z.coerce.number().int().min(1).max(10000).default(100),
  purpose: FilePurpose.optional(),
});

export const FileDeleted = z.object({ id: z.string(), object: z.literal('file'), deleted: z.literal(true) });
