import { z } from 'zod';
import { SecretAllowedHosts, SecretName } from '../events/secret.ts';
import { SortOrder } from './common.ts';

const AllowedHosts = SecretAllowedHosts.describe(
  'The hosts an http_request node may send the secret to: names (`api.example.com`), with their subdomains (`*.example.com`), or IP addresses and CIDR ranges, checked after DNS and on every redirect. Empty (the default): the secret is sent nowhere (`secret_destination_refused`).',
);

export const CreateSecretBody = z.strictObject({
  name: SecretName,
  value: z.string().min(1).max(8192).describe('Stored encrypted; never returned.'),
  allowed_hosts: AllowedHosts.optional(),
});

/** What may change of a stored secret: where it may be sent (its value is replaced by deleting and storing again). */
export const UpdateSecretBody = z.strictObject({ allowed_hosts: AllowedHosts });

/** A secret as the API shows it: its name and the last characters of its value, never the value. */
export const Secret = z.object({
  name: z.string(),
  hint: z.string().describe('The value’s last four characters after an ellipsis (only the ellipsis for values under 8 characters).'),
  allowed_hosts: z.array(z.string()).describe('Where http_request nodes may send it; empty: nowhere.'),
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
