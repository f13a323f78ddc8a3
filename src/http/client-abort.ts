import type { Context } from 'koa';

/**
 * Aborts when the client goes away before the response is complete. The response's 'close'
 * fires on both a finished response and a dropped connection; only the second one aborts.
 */
export function abortOnDisconnect(ctx: Context): AbortController {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort(new Error('client disconnected'));
  });
  return controller;
}
