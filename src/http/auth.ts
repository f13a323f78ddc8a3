import type { Context } from 'koa';
import { forbidden, unauthenticated } from '../app/errors.ts';
import type { Authenticator } from '../app/services/api-keys.ts';
import type { ConsoleSessions } from '../app/services/console-sessions.ts';
import type { Principal } from '../app/services/principal.ts';
import { type AuthFailureLimiter, withFailureLimit } from './auth-failures.ts';
import { readConsoleCookie } from './console-cookie.ts';

/** What the console sends with every request its cookie signs: a header no other site can make a browser send. */
export const CONSOLE_HEADER = 'x-kbqa-console';

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

/**
 * A browser sends the cookie with any request to this site, a form or an image from another site's
 * page included (SameSite=Strict stops most, not all: a sibling subdomain is the same site). Only
 * a script of this origin can add a header, so a request the cookie signs must carry it.
 */
export function requireConsoleHeader(ctx: Context) {
  if (ctx.get(CONSOLE_HEADER) !== '1') {
    throw forbidden('csrf_header_required', `A request signed by the console's session cookie must send '${CONSOLE_HEADER}: 1'.`);
  }
}

const isApi = (path: string) => path === '/v1' || path.startsWith('/v1/');

/**
 * Who a request is: the key of its Authorization header; or, on /v1 without one, the key of the
 * console's session cookie, when the request also sends the console's header. Wrong keys are
 * limited per address and key prefix (auth-failures.ts); a sealed cookie cannot be guessed.
 */
export async function authenticateRequest(ctx: Context, deps: { authenticator: Authenticator; consoleSessions?: ConsoleSessions; authFailures?: AuthFailureLimiter }): Promise<Principal> {
  const cookie = deps.consoleSessions && ctx.get('authorization') === '' && isApi(ctx.path) ? readConsoleCookie(ctx) : undefined;
  if (cookie === undefined) return withFailureLimit(deps.authFailures, ctx, bearerToken(ctx), (token) => deps.authenticator.authenticate(token));
  requireConsoleHeader(ctx);
  return (await deps.consoleSessions!.resume(cookie)).principal;
}
