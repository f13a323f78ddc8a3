/**
 * An origin that may embed a landing page: it goes into the page's CSP `frame-ancestors` as it is,
 * so it must be one origin exactly, in the form browsers send it (`https://example.com`,
 * `http://localhost:8080`), and nothing a policy reads as more: no wildcard (`https://*` lets every
 * https site frame the page), no quote (`'unsafe-inline'`-like keywords), no space, comma or
 * semicolon (another source or directive), no path. Host names of letters, digits and hyphens
 * (international names in their xn-- form), or IPv4 addresses; IPv6 literals are not CSP sources.
 */
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const EXACT = new RegExp(`^https?://${LABEL}(?:\\.${LABEL})*(?::\\d{1,5})?$`);

/** Why `entry` is not an exact origin, in words, or null when it is one. */
export function embedOriginProblem(entry: string): string | null {
  if (/[\s'",;]/.test(entry)) return 'may not contain spaces, quotes, commas or semicolons';
  if (entry.includes('*')) return 'a wildcard is not allowed: list each origin that may embed the page';
  if (!URL.canParse(entry)) return 'is not an origin: give scheme://host[:port], such as https://example.com';
  const url = new URL(entry);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http or https origin';
  if (url.username || url.password || /^[a-z]+:\/\/[^/\\]+[/?#\\]/i.test(entry)) return 'must be an origin only, with no user, path, query or fragment, such as https://example.com';
  if (!EXACT.test(url.origin)) return 'must name a host by letters, digits, hyphens and dots, or an IPv4 address';
  if (url.origin !== entry) return `must be written as browsers send it: ${url.origin}`;
  return null;
}
