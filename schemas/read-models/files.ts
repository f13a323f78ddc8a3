import { z } from 'zod';

/** A stored file as the files projection keeps it (projections/files): one per upload, gone once deleted. */
export const FileDoc = z.object({
  id: z.string(),
  object: z.literal('file'),
  workspace_id: z.string(),
  filename: z.string(),
  purpose: z.string(),
  bytes: z.number().int(),
  sha256: z.string(),
  media_type: z.string(),
  uploaded_by: z.string().nullable(),
  created_at: z.string(),
});
export type FileDoc = z.infer<typeof FileDoc>;
