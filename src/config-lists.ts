import { z } from 'zod';
import { parseHostAllowList } from './lib/address-policy.ts';

/**
 * Settings that are lists with a grammar of their own, for src/config.ts (the one reader of the
 * environment), kept here so that file stays within its size.
 */

/**
 * KBQA_WORKFLOW_HTTP_ALLOW_HOSTS: comma-separated host names (`.example.com` or `*.example.com`
 * with subdomains), IP addresses and CIDR ranges. Checked at start, so a mistyped entry stops the
 * process rather than silently allowing nothing.
 */
export const hostAllowList = z
  .string()
  .default('')
  .transform((text, ctx) => {
    const entries = text
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    try {
      parseHostAllowList(entries);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
    return entries;
  });

const origin = String.raw`(\*|[a-z][a-z0-9+.-]*://[^\s,/]+/?)`;
/** KBQA_CORS_ORIGINS: origins (scheme://host[:port]) or `*`, comma-separated. */
export const originList = z.string().regex(new RegExp(`^\\s*${origin}\\s*(,\\s*${origin}\\s*)*$`, 'i'), 'a comma-separated list of origins (scheme://host[:port]) or *');
/** An origin as browsers send it: lower case, no trailing slash, no default port. */
export const normalizeOrigin = (entry: string) => {
  const bare = entry.replace(/\/$/, '').toLowerCase();
  if (!/^https?:/.test(bare)) return bare;
  try {
    return new URL(bare).origin;
  } catch {
    throw new Error(`invalid configuration: KBQA_CORS_ORIGINS: ${entry} is not an origin`);
  }
};
