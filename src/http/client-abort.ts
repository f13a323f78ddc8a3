import type { Context } from 'koa';

/**
 * Aborts when the client goes away before the response is complete: follows the envelope's
 * `ctx.state.clientLeft` signal. Without the envelope (a bare app), the response's 'close', which
 * fires on both a finished response and a dropped connection; only the second one aborts.
 */
export function abortOnDisconnect(ctx: Context): AbortController {
  const controller = new AbortController();
  const left = ctx.state.clientLeft as AbortSignal | undefined;
  if (left) {
    if (left.aborted) controller.abort(left.reason);
    else left.addEventListener('abort', () => controller.abort(left.reason), { once: true });
    return controller;
  }
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort(new Error('client disconnected'));
  });
  return controller;
}
