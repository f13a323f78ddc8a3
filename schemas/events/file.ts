import { z } from 'zod';

/** A file stored through the OpenAI-style Files API: workspace-level bytes (in the blob store) and what the client said they are for. */
export const FileUploaded = z.strictObject({
  file_id: z.string(),
  workspace_id: z.string(),
  filename: z.string(),
  purpose: z.string(),
  bytes: z.number().int().nonnegative(),
  sha256: z.string(),
  media_type: z.string(),
  /** The key that uploaded it: a key limited to some knowledge bases sees only its own files. */
  uploaded_by: z.string().nullable(),
  created_at: z.iso.datetime(),
});

export const FileDeleted = z.strictObject({ file_id: z.string(), deleted_at: z.iso.datetime() });

export const fileEvents = { FileUploaded, FileDeleted } as const;
