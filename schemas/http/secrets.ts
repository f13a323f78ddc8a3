import { z } from 'zod';
import { SecretName } from '../events/secret.ts';
import { SortOrder } from './common.ts';

export const CreateSecretBody = z.strictObject({
  name: SecretName,
  value: z.string().min(1).max(8192).describe('Stored encrypted; never returned.'),
});

/** A secret as the API shows it: its name and the last characters of its value, never the value. */
export const Secret = z.object({
  name: z.string(),
  hint: z.string().describe('The value’s last four characters after an ellipsis (only the ellipsis for values under 8 characters).'),
  created_at: z.string(),
});
export type Secret = z.infer<typeof Secret>;

/** Secrets are listed by name; `after` is a name. */
export const SecretListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  after: SecretName.optional(),
  order: SortOrder.default('asc'),
});

export const SecretDeleted = z.object({ name: z.string(), object: z.literal('secret.deleted'), deleted: z.literal(true) });
