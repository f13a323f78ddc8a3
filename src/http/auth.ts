import type { Context } from 'koa';
import { unauthenticated } from '../app/errors.ts';

/** The bearer token of a request, or a 401 that says what is missing. */
export function bearerToken(ctx: Context): string {
  const header = ctx.get('authorization');
  if (header === '') {
    throw unauthenticated('missing_api_key', "You didn't provide an API key. Send it as 'Authorization: Bearer <API_KEY>'.");
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthenticated('invalid_authorization_header', "The Authorization header must be 'Bearer <API_KEY>'.");
  return match[1]!;
}
