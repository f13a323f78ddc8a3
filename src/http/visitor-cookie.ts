import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const VISITOR_COOKIE = 'kbqa_visitor';

/** Who is talking on a landing page: a random id, and the access code's fingerprint once they gave it. */
export type Visitor = { id: string; granted: string | null; fresh: boolean };

const sign = (key: Buffer, slug: string, id: string, granted: string) => createHmac('sha256', key).update(`${slug}|${id}|${granted}`).digest('base64url');

/**
 * The visitor a request's cookie names, when its HMAC (bound to the page's slug) holds; anything
 * else (no cookie, another page's, a tampered one) is a new visitor, who reads nothing of anyone's.
 */
export function readVisitor(key: Buffer, slug: string, cookie: string | undefined): Visitor {
  const [version, id, granted, signature] = (cookie ?? '').split('.');
  if (version === 'v1' && id && granted && signature) {
    const expected = Buffer.from(sign(key, slug, id, granted));
    const given = Buffer.from(signature);
    if (expected.length === given.length && timingSafeEqual(expected, given)) return { id, granted: granted === '-' ? null : granted, fresh: false };
  }
  return { id: randomBytes(16).toString('base64url'), granted: null, fresh: true };
}

/**
 * The Set-Cookie value: signed, HttpOnly, for this page's path only, a year long. Where the browser
 * keeps a Secure cookie (`secureContext`: https, or a loopback host, which browsers treat as secure)
 * it is `SameSite=None; Secure; Partitioned`: the embed snippet frames the page on other sites,
 * where a Lax cookie is never stored (every message a new visitor). Partitioned (CHIPS): a frame on
 * site A keeps a visitor of its own, apart from the page's own and from site B's frame, and browsers
 * that block third-party cookies still keep it. Plain http elsewhere cannot keep a Secure cookie:
 * Lax there, so the page itself works and an embed needs https.
 */
export function visitorCookie(key: Buffer, slug: string, visitor: Pick<Visitor, 'id' | 'granted'>, secureContext: boolean): string {
  const granted = visitor.granted ?? '-';
  const value = `v1.${visitor.id}.${granted}.${sign(key, slug, visitor.id, granted)}`;
  return `${VISITOR_COOKIE}=${value}; Path=/a/${slug}; Max-Age=31536000; HttpOnly; ${secureContext ? 'SameSite=None; Secure; Partitioned' : 'SameSite=Lax'}`;
}
