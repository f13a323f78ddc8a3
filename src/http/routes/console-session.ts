import type { Context } from 'koa';
import { unauthenticated } from '../../app/errors.ts';
import type { ConsoleSessions } from '../../app/services/console-sessions.ts';
import { ConsoleSession, ConsoleSignInBody } from '../../../schemas/http/console-session.ts';
import { CONSOLE_COOKIE, requireConsoleHeader } from '../auth.ts';
import { clientAddress } from '../client-address.ts';
import type { RateLimiter } from '../rate-limit.ts';
import { route } from '../route.ts';

const tag = 'console';
const path = '/console/session';
/** 401: no session, or a key or session that is not valid; 403: no console header; 429: too many sign-ins from one address. */
const refusals = [401, 403, 429];

/**
 * HttpOnly: no script reads it. SameSite=Strict: no other site's page sends it. Secure when the
 * request came over https (directly, or as the proxy's X-Forwarded-Proto says): a browser then
 * never sends it in the clear. Path=/: the console's pages and the API share it.
 */
function setCookie(ctx: Context, value: string, expires: Date) {
  ctx.cookies.set(CONSOLE_COOKIE, value, { httpOnly: true, sameSite: 'strict', secure: ctx.secure, path: '/', expires, overwrite: true });
}

/** The console's sign-in (docs/console-session.md): routes outside /v1 that check their own cookie and header. */
export function consoleSessionRoutes(sessions: ConsoleSessions, signIns: RateLimiter, trustProxy: number) {
  return [
    route({
      method: 'post',
      path,
      summary: "Sign the console in: the API key is checked, then sealed into an HttpOnly, SameSite=Strict session cookie (12 hours); send 'X-KBQA-Console: 1'",
      tag,
      scope: 'public',
      body: ConsoleSignInBody,
      status: 204,
      refusals,
      handle: async ({ ctx, body }) => {
        requireConsoleHeader(ctx);
        // Per address, before the key is looked at: guesses cost the same whether they hit or miss.
        if (signIns.enabled) signIns.check(`console-sign-in:${clientAddress(ctx, trustProxy)}`);
        const session = await sessions.signIn(body.api_key);
        setCookie(ctx, session.token, session.expiresAt);
        return { status: 204, body: null };
      },
    }),
    route({
      method: 'get',
      path,
      summary: 'Who the console is signed in as: workspace, scopes, knowledge bases and when the session ends',
      tag,
      scope: 'public',
      response: ConsoleSession,
      refusals,
      handle: async ({ ctx }) => {
        requireConsoleHeader(ctx);
        const cookie = ctx.cookies.get(CONSOLE_COOKIE);
        if (cookie === undefined) throw unauthenticated('console_session_required', 'The console is not signed in: POST /console/session with an API key.');
        const { principal, expiresAt } = await sessions.resume(cookie);
        return {
          body: {
            object: 'console.session',
            workspace_id: principal.workspaceId,
            key_id: principal.keyId,
            scopes: principal.scopes,
            knowledge_base_ids: principal.knowledgeBaseIds,
            expires_at: expiresAt.toISOString(),
          },
        };
      },
    }),
    route({
      method: 'delete',
      path,
      summary: "Sign the console out: the cookie is cleared (204 whether or not there was one); send 'X-KBQA-Console: 1'",
      tag,
      scope: 'public',
      status: 204,
      refusals: [403],
      handle: ({ ctx }) => {
        requireConsoleHeader(ctx);
        setCookie(ctx, '', new Date(0));
        return { status: 204, body: null };
      },
    }),
  ];
}
