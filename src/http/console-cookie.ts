import type { Context } from 'koa';
import { badRequest } from '../app/errors.ts';
import { secureContext } from './secure-context.ts';

/**
 * The console's session cookie (docs/console-session.md). `__Host-`: a browser keeps a cookie of
 * this name only when it is Secure, has Path=/ and no Domain, so a sibling subdomain (another site
 * of the same domain) cannot set one for this host: no session of its own tossed in (issue 42).
 */
export const CONSOLE_COOKIE = '__Host-kbqa_console';

/**
 * The name over plain http to a host that is not loopback (`npm start` on a LAN address), where a
 * browser keeps no Secure cookie and so no `__Host-` one. There a sibling could toss one: a request
 * carrying two is refused (below).
 */
export const PLAIN_CONSOLE_COOKIE = 'kbqa_console';

const NAMES = new Set([CONSOLE_COOKIE, PLAIN_CONSOLE_COOKIE]);

/** The name this request's browser keeps: `__Host-` over https (direct, or as the proxy says) and on loopback. */
export const consoleCookieName = (ctx: Context) => (secureContext(ctx) ? CONSOLE_COOKIE : PLAIN_CONSOLE_COOKIE);

/** Every console session cookie the request carries, under either name, in the order sent. */
function sessionCookies(ctx: Context): { name: string; value: string }[] {
  return ctx
    .get('cookie')
    .split(';')
    .map((pair) => pair.trim())
    .map((pair) => ({ name: pair.slice(0, Math.max(pair.indexOf('='), 0)), value: pair.slice(pair.indexOf('=') + 1) }))
    .filter(({ name }) => NAMES.has(name));
}

/**
 * The request's session cookie, or undefined. Two (of either name) mean someone else's session is
 * in this browser beside, or instead of, the user's: which one the browser sent first says nothing
 * (a longer Path comes first), so the request is refused rather than guessed at.
 */
export function readConsoleCookie(ctx: Context): string | undefined {
  const cookies = sessionCookies(ctx);
  if (cookies.length > 1) {
    throw badRequest(
      'duplicate_console_session',
      'More than one console session cookie came with this request: another site of this domain may have set one. Clear the cookies of this site, then sign in again.',
    );
  }
  return cookies.find(({ name }) => name === consoleCookieName(ctx))?.value;
}

/**
 * Sets the session cookie (or clears it, with an empty value and an expiry in the past). HttpOnly:
 * no script reads it. SameSite=Strict: no other site's page sends it. Path=/: the console's pages
 * and the API share it. Secure under the `__Host-` name: a browser then never sends it in the
 * clear. A cookie of the other name that came with the request is cleared too (one an older
 * version set, on this host).
 */
export function setConsoleCookie(ctx: Context, value: string, expires: Date) {
  const name = consoleCookieName(ctx);
  const cookie = (n: string, v: string, at: Date) => `${n}=${v}; Path=/; Expires=${at.toUTCString()}; HttpOnly; SameSite=Strict${n === CONSOLE_COOKIE ? '; Secure' : ''}`;
  ctx.append('set-cookie', cookie(name, value, expires));
  for (const other of new Set(sessionCookies(ctx).map((c) => c.name).filter((n) => n !== name))) ctx.append('set-cookie', cookie(other, '', new Date(0)));
}
