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

/** The Set-Cookie value: signed, HttpOnly, SameSite=Lax, for this page's path only, a year long. */
export function visitorCookie(key: Buffer, slug: string, visitor: Pick<Visitor, 'id' | 'granted'>, secure: boolean): string {
  const granted = visitor.granted ?? '-';
  const value = `v1.${visitor.id}.${granted}.${sign(key, slug, visitor.id, granted)}`;
  return `${VISITOR_COOKIE}=${value}; Path=/a/${slug}; Max-Age=31536000; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
