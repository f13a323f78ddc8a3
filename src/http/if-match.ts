import type { Context } from 'koa';
import { badRequest } from '../app/errors.ts';

/** The number inside an If-Match ETag this API gave (`"3"`); undefined when the client sent none (or `*`). */
export function ifMatch(ctx: Context): number | undefined {
  const header = ctx.get('if-match');
  if (header === '' || header === '*') return undefined;
  const match = /^(?:W\/)?"(\d+)"$/.exec(header.trim());
  if (!match) throw badRequest('invalid_if_match', 'If-Match must be an ETag this API returned, such as "3".', 'If-Match');
  return Number(match[1]);
}
