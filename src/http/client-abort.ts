import type { Context } from 'koa';

/**
 * Whether the client left before its response was complete, as an AbortSignal made on first use:
 * most requests never ask, and an AbortController per request costs about as much as routing it.
 * The envelope keeps one per request in `ctx.state.clientLeft` and calls `leave` from its 'close' listener.
 */
export class ClientLeft {
  #controller: AbortController | null = null;
  #reason: Error | null = null;

  get signal(): AbortSignal {
    if (this.#controller === null) {
      this.#controller = new AbortController();
      if (this.#reason) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  leave(reason: Error) {
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}

/**
 * Aborts when the client goes away before the response is complete: follows the envelope's
 * `ctx.state.clientLeft`. Without the envelope (a bare app), the response's 'close', which
 * fires on both a finished response and a dropped connection; only the second one aborts.
 */
export function abortOnDisconnect(ctx: Context): AbortController {
  const controller = new AbortController();
  const left = (ctx.state.clientLeft as ClientLeft | undefined)?.signal;
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
