/** Loopback: the browser counts the page a secure context, and keeps a Secure cookie, over plain http. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Whether a browser treats the request's origin as secure, and so keeps the Secure cookies it is
 * sent: https (directly, or as the proxy's X-Forwarded-Proto says), or a loopback host. The
 * console's session cookie and the landing page's visitor cookie both choose by it.
 */
export const secureContext = (ctx: { secure: boolean; hostname: string }) => ctx.secure || isLoopbackHost(ctx.hostname);
