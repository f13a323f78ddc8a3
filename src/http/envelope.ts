import { randomBytes } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Metrics } from './metrics.ts';
import { toApiError } from './errors.ts';

const ACCEPTABLE_ID = /^[\w.:-]{1,128}$/;

/**
 * What wraps every request, in one middleware: its id (a sane incoming x-request-id is echoed),
 * the API error body for anything thrown below, and its latency in the metrics.
 */
export function envelope(metrics: Metrics, onServerError: (error: unknown, requestId: string) => void): Middleware {
  // Unique per process start plus a counter: ids must be unique, not secret, and they are on every request.
  const prefix = `req_${randomBytes(6).toString('hex')}`;
  let counter = 0;
  return async (ctx, next) => {
    const started = performance.now();
    const incoming = ctx.get('x-request-id');
    const requestId = ACCEPTABLE_ID.test(incoming) ? incoming : `${prefix}${(++counter).toString(36).padStart(8, '0')}`;
    ctx.state.requestId = requestId;
    ctx.set('x-request-id', requestId);
    try {
      await next();
    } catch (raw) {
      const error = toApiError(raw);
      if (error.status >= 500) onServerError(raw, requestId);
      ctx.status = error.status;
      ctx.set(error.headers);
      ctx.body = { error: { message: error.message, type: error.type, param: error.param, code: error.code } };
    }
    metrics.http.observe(ctx.method, (ctx.state.route as string | undefined) ?? 'unmatched', ctx.status, (performance.now() - started) / 1000);
  };
}
