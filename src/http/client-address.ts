import type { Context } from 'koa';

/**
 * Who a request comes from, for per-address limits: the last X-Forwarded-For entry (the address
 * the proxy in front saw; a client can add entries before it, not that one), else the
 * connection's. Koa's `ctx.ip` is the first entry, which the client writes. One function for every
 * limit (console sign-ins, failed bearer keys, landing pages) so they cannot disagree.
 */
export const clientAddress = (ctx: Context): string => ctx.ips.at(-1) ?? ctx.req.socket.remoteAddress ?? 'unknown';
