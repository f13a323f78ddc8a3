/**
 * Scrubbing secrets out of text that came from elsewhere (an HTTP node's response, a model
 * provider's error) before it reaches a run's record, a client or a log. A server that echoes a
 * credential seldom echoes it verbatim: it may upper-case it, base64 it (alone or inside a longer
 * base64 blob, as a JWT or a Basic header does), hex it, percent-encode it, JSON- or HTML-escape
 * it. Every form named here is replaced by `[secret]`, matched case-insensitively.
 *
 * Values shorter than MIN_SECRET are left alone: they cannot be told from ordinary text, and
 * scrubbing them would mangle every answer. An encoded form is matched only when at least
 * MIN_FORM characters of it are fixed by the secret alone.
 */

export const SCRUBBED = '[secret]';
const MIN_SECRET = 6;
const MIN_FORM = 8;

export type Scrub = (text: string) => string;

export function secretScrubber(secrets: readonly string[]): Scrub {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET) continue;
    for (const part of partsOf(secret)) for (const form of formsOf(part)) if (form.length >= Math.min(MIN_FORM, part.length)) forms.add(form);
  }
  if (forms.size === 0) return (text) => text;
  // Longest first, so a form that contains another is replaced whole.
  const pattern = new RegExp([...forms].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'gi');
  return (text) => text.replace(pattern, SCRUBBED);
}

/** Scrubs every string in a JSON-like value (keys too), leaving its shape. */
export function scrubValue(value: unknown, scrub: Scrub): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, scrub));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [scrub(k), scrubValue(v, scrub)]));
  return value;
}

/**
 * The value and what a server may echo of it alone: the credential after an auth scheme
 * (`Bearer sk-…` → `sk-…`), and a Basic header's decoded `user:password` and password.
 */
function partsOf(secret: string): string[] {
  const parts = [secret];
  const scheme = /^([A-Za-z][\w-]*)\s+(\S.*)$/.exec(secret);
  if (scheme && scheme[2]!.length >= MIN_SECRET) parts.push(scheme[2]!);
  if (scheme && scheme[1]!.toLowerCase() === 'basic') {
    const decoded = Buffer.from(scheme[2]!, 'base64').toString('utf8');
    if (decoded.length >= MIN_SECRET) parts.push(decoded);
    const password = decoded.slice(decoded.indexOf(':') + 1);
    if (decoded.includes(':') && password.length >= MIN_SECRET) parts.push(password);
  }
  return parts;
}

function formsOf(text: string): string[] {
  const bytes = Buffer.from(text, 'utf8');
  const hex = bytes.toString('hex');
  const codes = [...text].map((c) => c.codePointAt(0)!);
  return [
    text,
    [...text].reverse().join(''),
    ...base64Forms(bytes),
    hex,
    // Percent-encoding: as encodeURIComponent does, as a form does (space as +), and every byte.
    encodeURIComponent(text),
    encodeURIComponent(text).replace(/%20/g, '+'),
    hex.replace(/(..)/g, '%$1'),
    // JSON: the escapes JSON.stringify makes, and every character as \uXXXX.
    JSON.stringify(text).slice(1, -1),
    codes.map((c) => (c > 0xffff ? JSON.stringify(String.fromCodePoint(c)).slice(1, -1) : `\\u${c.toString(16).padStart(4, '0')}`)).join(''),
    // HTML: the markup escapes, and every character as a decimal or a hex entity.
    text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!),
    codes.map((c) => `&#${c};`).join(''),
    codes.map((c) => `&#x${c.toString(16)};`).join(''),
  ];
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * The base64 of the bytes at each of the three alignments they may have inside a longer encoded
 * string (standard and URL-safe alphabets): only the characters the bytes alone decide. At offset
 * 1 the first two characters also carry the byte before, at offset 2 the first three; the last
 * character of a partial group carries the byte after.
 */
function base64Forms(bytes: Buffer): string[] {
  const forms: string[] = [bytes.toString('base64')];
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64').replace(/=+$/, '');
    const partial = (offset + bytes.length) % 3 !== 0;
    forms.push(encoded.slice([0, 2, 3][offset], partial ? -1 : undefined));
  }
  return forms.flatMap((form) => [form, form.replace(/\+/g, '-').replace(/\//g, '_')]);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
