import { z } from 'zod';

/** A secret as the secrets projection stores it: its reference and hint, never its value. `id` is `{workspace_id}-{name}`, so lists sort by name. */
export const SecretDoc = z.object({
  id: z.string(),
  workspace_id: z.string(),
  name: z.string(),
  secret_ref: z.string(),
  hint: z.string(),
  /** Absent for secrets stored before destinations existed: nowhere. */
  allowed_hosts: z.array(z.string()).optional(),
  created_at: z.string(),
});
export type SecretDoc = z.infer<typeof SecretDoc>;
