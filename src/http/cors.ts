import koaCors from '@koa/cors';
import type { Middleware } from 'koa';

/** What a browser client reads from our responses: the request id, rate limits, Retry-After, ETags. */
export const EXPOSED_HEADERS = [
  'x-request-id',
  'x-ratelimit-limit-requests',
  'x-ratelimit-remaining-requests',
  'x-ratelimit-reset-requests',
  'retry-after',
  'etag',
];

/** What a browser client may send: the key, JSON bodies, idempotent retries, conditional updates, its own request id. */
export const ALLOWED_HEADERS = ['authorization', 'content-type', 'idempotency-key', 'if-match', 'x-request-id'];

/**
 * CORS for the listed origins (`*`: any). It runs before routing and authentication: a preflight
 * (OPTIONS with Access-Control-Request-Method, never an Authorization header) is answered 204
 * here for every route. An origin not in the list gets no CORS header at all (its preflight falls
 * through to the 405 of the route table). The headers are set before the route runs, so the envelope's
 * error bodies (401, 429, 500) carry them too. No credentials, and X-KBQA-Console is not an
 * allowed header: the console's session cookie signs requests of its own origin only.
 */
export function cors(origins: readonly string[], templateOf: (method: string, path: string) => string | null): Middleware {
  const any = origins.includes('*');
  const allowed = new Set(origins);
  const middleware = koaCors({
    origin: (ctx) => {
      if (any) return '*';
      const origin = ctx.get('origin');
      return allowed.has(origin) ? origin : '';
    },
    exposeHeaders: EXPOSED_HEADERS,
    allowHeaders: ALLOWED_HEADERS,
    allowMethods: ['GET', 'HEAD', 'PUT', 'POST', 'PATCH', 'DELETE'],
    maxAge: 600,
    // The envelope keeps headers already set when it turns an error into a response.
    keepHeadersOnError: false,
  });
  return async (ctx, next) => {
    const preflightMethod = ctx.method === 'OPTIONS' ? ctx.get('access-control-request-method') : '';
    if (preflightMethod) {
      // The metrics and the access line name the route the preflight is for.
      const route = templateOf(preflightMethod.toUpperCase(), ctx.path);
      if (route !== null) ctx.state.route = route;
    }
    await middleware(ctx, next);
  };
}
