import { randomBytes } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import type { Metrics } from './metrics.ts';
import { ClientLeft } from './client-abort.ts';
import { asSentence, toApiError } from './errors.ts';

const ACCEPTABLE_ID = /^[\w.:-]{1,128}$/;

/** Probes and scrapes arrive every few seconds: their access lines are debug unless they fail with a 5xx. */
const QUIET_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/** Whether the client went away before its response was complete (the socket is gone, maybe before its close event). */
const leftEarly = (ctx: Context) => !ctx.res.writableFinished && (ctx.res.destroyed || ctx.req.socket.destroyed);

/**
 * What wraps every request, in one middleware: its id (a sane incoming x-request-id is echoed),
 * the API error body for anything thrown below, its latency in the metrics, and one access line
 * when the response is over (sent, or cut short by the client leaving: `aborted`, at info, never
 * an error). A 5xx also goes to onServerError, with the stack, unless the client had left.
 *
 * `ctx.state.clientLeft` (client-abort.ts) has a signal that aborts when the client leaves before its
 * response is complete: the one 'close' listener of the envelope serves everything below that needs
 * to know, rather than one listener each on a response that already has many.
 */
export function envelope(metrics: Metrics, onServerError: (error: unknown, requestId: string) => void, logger?: Logger): Middleware {
  // Unique per process start plus a counter: ids must be unique, not secret, and they are on every request.
  const prefix = `req_${randomBytes(6).toString('hex')}`;
  let counter = 0;
  return async (ctx, next) => {
    const started = performance.now();
    const incoming = ctx.get('x-request-id');
    const requestId = ACCEPTABLE_ID.test(incoming) ? incoming : `${prefix}${(++counter).toString(36).padStart(8, '0')}`;
    ctx.state.requestId = requestId;
    ctx.set('x-request-id', requestId);
    const left = new ClientLeft();
    ctx.state.clientLeft = left;
    // 'close' comes once the response is over: finished, or the connection dropped before that.
    ctx.res.once('close', () => {
      if (logger) logAccess(logger, ctx, requestId, performance.now() - started);
      if (!ctx.res.writableFinished) left.leave(new Error('client disconnected'));
    });
    try {
      await next();
    } catch (raw) {
      const error = toApiError(raw);
      // A failure because the client left (its request aborted) is no server error: the access line says so.
      // Nor is turning work away under overload (load-shedding.ts): it is what the server is meant to do then.
      if (error.status >= 500 && error.code !== 'server_overloaded' && !leftEarly(ctx)) onServerError(raw, requestId);
      ctx.status = error.status;
      ctx.set(error.headers);
      ctx.body = { error: { message: asSentence(error.message), type: error.type, param: error.param, code: error.code, ...(error.detail && { detail: error.detail }) } };
    }
    metrics.http.observe(ctx.method, (ctx.state.route as string | undefined) ?? 'unmatched', ctx.status, (performance.now() - started) / 1000);
  };
}

/**
 * The access line: request id, key id (never the secret), method, route template (the path only
 * when no route matched), the status sent and the milliseconds until the response was over.
 */
function logAccess(logger: Logger, ctx: Context, requestId: string, ms: number) {
  const route = (ctx.state.route as string | undefined) ?? null;
  const aborted = !ctx.res.writableFinished;
  const line = {
    requestId,
    keyId: (ctx.state.keyId as string | undefined) ?? null,
    method: ctx.method,
    route,
    ...(route === null && { path: ctx.path }),
    // Nothing was sent to a client that left before the headers.
    status: ctx.res.headersSent ? ctx.res.statusCode : null,
    ms: Math.round(ms * 10) / 10,
    ...(aborted && { aborted: true }),
  };
  if (aborted) return logger.info(line, 'request aborted by the client');
  if (route !== null && QUIET_ROUTES.has(route) && ctx.res.statusCode < 500) return logger.debug(line, 'request');
  logger.info(line, 'request');
}
