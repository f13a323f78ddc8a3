import { z } from 'zod';
import { FileDoc } from '../read-models/files.ts';
import { ListQuery } from './common.ts';

/** The purposes OpenAI's Files API accepts for an upload: stored and listed by, never acted on here, but a typo is the client's to hear of. */
export const FILE_PURPOSES = ['assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals'] as const;
export const FilePurpose = z.enum(FILE_PURPOSES).describe('What the file is for, one of OpenAI’s upload purposes; stored as given');

const stored = FileDoc.shape;

/** OpenAI's File object: the read model's public fields, its creation time in Unix seconds, always processed. */
export const OpenAiFile = z.object({
  id: stored.id,
  object: stored.object,
  bytes: stored.bytes,
  created_at: z.number().int(),
  filename: stored.filename,
  purpose: stored.purpose,
  status: z.literal('processed'),
  status_details: z.null(),
});
export type OpenAiFile = z.infer<typeof OpenAiFile>;

export const FileListQuery = ListQuery.extend({
  limit: z.coerce.number().int().min(1).max(100).default(100),
  // Any purpose filters (OpenAI's output purposes, say): one no upload has lists nothing.
  purpose: z.string().min(1).max(64).optional(),
});

export const FileDeleted = z.object({ id: z.string(), object: z.literal('file'), deleted: z.literal(true) });
