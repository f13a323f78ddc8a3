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
