import { z } from 'zod';

/** A secret's name: what routes and, later, provider settings call it by. */
export const SecretName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'letters, digits, _ and -, at most 64, starting with a letter or digit');

/**
 * A secret was stored. The value is not here, nor anything derived from it but its last
 * characters: it lives in the SecretStore under `secret_ref`, so the log never holds it.
 */
export const SecretStored = z.strictObject({
  workspace_id: z.string(),
  name: SecretName,
  secret_ref: z.string(),
  hint: z.string(),
  created_at: z.iso.datetime(),
});

/** A secret was deleted, and its value destroyed in the SecretStore: a replay cannot bring it back. */
export const SecretDeleted = z.strictObject({
  workspace_id: z.string(),
  name: SecretName,
  secret_ref: z.string(),
  deleted_at: z.iso.datetime(),
});

export const secretEvents = { SecretStored, SecretDeleted } as const;
