import { unauthenticated } from '../../app/errors.ts';
import type { ConsoleSessions } from '../../app/services/console-sessions.ts';
import { ConsoleSession, ConsoleSignInBody } from '../../../schemas/http/console-session.ts';
import { type AuthFailureLimiter, withFailureLimit } from '../auth-failures.ts';
import { requireConsoleHeader } from '../auth.ts';
import { clientAddress } from '../client-address.ts';
import { readConsoleCookie, setConsoleCookie } from '../console-cookie.ts';
import type { RateLimiter } from '../rate-limit.ts';
import { route } from '../route.ts';

const tag = 'console';
const path = '/console/session';
/** 401: no session, or a key or session that is not valid; 403: no console header; 429: too many sign-ins from one address. */
const refusals = [401, 403, 429];
/** One proxy in front: its X-Forwarded-For entry is the client's (client-address.ts). */
const PROXIES_IN_FRONT = 1;

/** The console's sign-in (docs/console-session.md): routes outside /v1 that check their own cookie and header. */
export function consoleSessionRoutes(sessions: ConsoleSessions, signIns: RateLimiter, authFailures?: AuthFailureLimiter) {
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
        if (signIns.enabled) signIns.check(`console-sign-in:${clientAddress(ctx, PROXIES_IN_FRONT)}`);
        // A wrong key here counts as one sent as a bearer key: a guesser cannot split between the two.
        const session = await withFailureLimit(authFailures, ctx, body.api_key, (key) => sessions.signIn(key));
        setConsoleCookie(ctx, session.token, session.expiresAt);
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
      // 400: two session cookies (console-cookie.ts).
      refusals: [400, ...refusals],
      handle: async ({ ctx }) => {
        requireConsoleHeader(ctx);
        const cookie = readConsoleCookie(ctx);
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
        setConsoleCookie(ctx, '', new Date(0));
        return { status: 204, body: null };
      },
    }),
  ];
}
