import type { Context } from 'koa';

/**
 * The address a request came from, for limits per address: the hop the nearest untrusted party
 * connected from. Each of the `trustedProxies` proxies in front (KBQA_TRUST_PROXY) appends the
 * address it saw to X-Forwarded-For, so the entry `trustedProxies` from the end of [...entries,
 * connection] is what the outermost one saw; whatever comes before it the client wrote, and a
 * client that rotates it must not get a new budget with each value. With 0, the header is the
 * client's own writing and only the connection counts. Koa's `ctx.ip` (the first entry) is what
 * the client wrote: never that.
 */
export function clientAddress(ctx: Pick<Context, 'ips' | 'req'>, trustedProxies: number): string {
  const connection = ctx.req.socket.remoteAddress ?? 'unknown';
  if (trustedProxies === 0) return connection;
  const hops = [...ctx.ips, connection];
  return hops[Math.max(0, hops.length - 1 - trustedProxies)]!;
}
