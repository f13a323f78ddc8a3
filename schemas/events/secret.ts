import { z } from 'zod';

/** A secret's name: what routes and, later, provider settings call it by. */
export const SecretName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'letters, digits, _ and -, at most 64, starting with a letter or digit');

/**
 * Where a secret may be sent (an http_request node's secret header): host names, exact or with
 * their subdomains (`*.example.com`, `.example.com`), and IP addresses or CIDR ranges, matched
 * against the address a request connects to. Empty or absent: nowhere.
 */
export const SecretAllowedHosts = z
  .array(z.string().regex(/^(\*?\.)?[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.?$|^\[?[0-9A-Fa-f:.]+\]?(\/\d{1,3})?$/, 'a host name (api.example.com, *.example.com) or an IP address or range (203.0.113.7, 2001:db8::/32)').max(253))
  .max(50);

/**
 * A secret was stored. The value is not here, nor anything derived from it but its last
 * characters: it lives in the SecretStore under `secret_ref`, so the log never holds it.
 */
export const SecretStored = z.strictObject({
  workspace_id: z.string(),
  name: SecretName,
  secret_ref: z.string(),
  hint: z.string(),
  /** Absent in secrets stored before destinations existed: they may be sent nowhere until an admin names some. */
  allowed_hosts: SecretAllowedHosts.optional(),
  created_at: z.iso.datetime(),
});

/** The hosts a secret may be sent to were replaced (PATCH /v1/secrets/{name}); its value is unchanged. */
export const SecretAllowedHostsChanged = z.strictObject({
  workspace_id: z.string(),
  name: SecretName,
  allowed_hosts: SecretAllowedHosts,
  changed_at: z.iso.datetime(),
});

/** A secret was deleted, and its value destroyed in the SecretStore: a replay cannot bring it back. */
export const SecretDeleted = z.strictObject({
  workspace_id: z.string(),
  name: SecretName,
  secret_ref: z.string(),
  deleted_at: z.iso.datetime(),
});

export const secretEvents = { SecretStored, SecretAllowedHostsChanged, SecretDeleted } as const;
