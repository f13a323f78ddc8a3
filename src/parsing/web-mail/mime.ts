import iconv from 'iconv-lite';
import { decodeText } from '../language/decode.ts';

/** One MIME entity: its headers (names in lower case, unfolded), type, decoded body and, if multipart, its parts. */
export type MimePart = {
  headers: Map<string, string>;
  /** `text/plain` when the entity does not say (RFC 2045 §5.2). */
  type: string;
  params: Record<string, string>;
  disposition: string;
  /** The attachment's name from Content-Disposition filename or Content-Type name, RFC 2047/2231 decoded. */
  filename?: string;
  /** The body with its Content-Transfer-Encoding undone (base64, quoted-printable). */
  body: Buffer;
  parts: MimePart[];
};

/** A message nested deeper than this is an attack or a loop of forwards, not correspondence. */
const MAX_DEPTH = 20;
const MAX_PARTS = 1000;

/**
 * A small RFC 5322/2045 reader: headers, multipart bodies split at their boundaries,
 * transfer encodings undone. Works on latin1 strings so that bytes survive untouched until a
 * part's own charset decodes them.
 */
export function parseMime(raw: Buffer): MimePart {
  const budget = { parts: 0 };
  return entity(raw.toString('latin1'), 0, budget);
}

function entity(source: string, depth: number, budget: { parts: number }): MimePart {
  // A part may have no headers at all: its body then starts right after the delimiter's line break.
  const split = /^\r?\n|\r?\n\r?\n/.exec(source);
  const head = split ? source.slice(0, split.index) : source;
  const rawBody = split ? source.slice(split.index + split[0].length) : '';
  const headers = parseHeaders(head);
  const [type, params] = parseHeaderValue(headers.get('content-type') ?? 'text/plain');
  const [disposition, dispositionParams] = parseHeaderValue(headers.get('content-disposition') ?? '');
  const name = dispositionParams.filename ?? params.name;
  const part: MimePart = { headers, type: type || 'text/plain', params, disposition, body: Buffer.alloc(0), parts: [] };
  if (name) part.filename = decodeWords(name);
  if (++budget.parts > MAX_PARTS || depth > MAX_DEPTH) return part;
  if (part.type.startsWith('multipart/') && params.boundary) {
    part.parts = splitMultipart(rawBody, params.boundary).map((p) => entity(p, depth + 1, budget));
  } else {
    part.body = transferDecode(rawBody, headers.get('content-transfer-encoding') ?? '');
    if (part.type === 'message/rfc822') part.parts = [entity(part.body.toString('latin1'), depth + 1, budget)];
  }
  return part;
}

function parseHeaders(head: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n(?=[ \t])/g, '').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    // The first occurrence is the author's; later ones are usually added in transit.
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return headers;
}

/** `type/subtype; key=value; key*=charset''pct-encoded` → the lower-cased value and its parameters (RFC 2045, 2231). */
export function parseHeaderValue(value: string): [string, Record<string, string>] {
  const semicolon = value.indexOf(';');
  const main = (semicolon < 0 ? value : value.slice(0, semicolon)).trim().toLowerCase();
  const params: Record<string, string> = {};
  const pieces: Record<string, { text: string; extended: boolean }[]> = {};
  const pattern = /;\s*([^=\s;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
  for (const match of value.matchAll(pattern)) {
    const [, rawKey, rawValue] = match as unknown as [string, string, string];
    const text = rawValue.startsWith('"') ? rawValue.slice(1, -1).replace(/\\(.)/g, '$1') : rawValue.trim();
    const [, key, index, star] = /^([^*]+)(?:\*(\d+))?(\*)?$/.exec(rawKey.toLowerCase()) ?? [];
    if (!key) continue;
    (pieces[key] ??= [])[Number(index ?? 0)] = { text, extended: Boolean(star) };
  }
  for (const [key, list] of Object.entries(pieces)) params[key] = joinContinuations(list);
  return [main, params];
}

/** RFC 2231 continuations; the first extended piece names the charset for all of them. */
function joinContinuations(list: { text: string; extended: boolean }[]): string {
  const first = list.find(Boolean);
  if (!first?.extended) return list.map((p) => p?.text ?? '').join('');
  const [, charset = 'utf-8', , firstText = ''] = /^([^']*)'([^']*)'(.*)$/.exec(first.text) ?? [undefined, 'utf-8', '', first.text];
  const bytes = list.map((p, i) => {
    const text = p === first ? firstText : (p?.text ?? '');
    return p?.extended || p === first ? percentDecode(text) : Buffer.from(text, 'latin1');
  });
  return decodeCharset(Buffer.concat(bytes), charset);
}

function percentDecode(text: string): Buffer {
  return Buffer.from(text.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
}

/** RFC 2047 encoded words (`=?utf-8?B?…?=`); whitespace between two of them is not part of the text. */
export function decodeWords(value: string): string {
  const word = /=\?([^?\s]+)\?([bq])\?([^?\s]*)\?=/gi;
  // Headers were read as latin1; raw 8-bit text (RFC 6532 allows UTF-8) is decoded as the body would be.
  const text = /[\x80-\xff]/.test(value) ? decodeText(Buffer.from(value, 'latin1')).text : value;
  return text.replace(/(\?=)\s+(?==\?)/g, '$1').replace(word, (_, charset: string, encoding: string, text: string) => {
    const bytes = encoding.toLowerCase() === 'b' ? Buffer.from(text, 'base64') : quotedPrintable(text.replace(/_/g, ' '));
    return decodeCharset(bytes, charset.split('*')[0]!);
  });
}

function transferDecode(body: string, encoding: string): Buffer {
  const kind = encoding.trim().toLowerCase();
  if (kind === 'base64') return Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
  if (kind === 'quoted-printable') return quotedPrintable(body.replace(/[ \t]+(?=\r?\n)/g, '').replace(/=\r?\n/g, ''));
  return Buffer.from(body, 'latin1');
}

function quotedPrintable(text: string): Buffer {
  return Buffer.from(text.replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
}

/** The text of a part in its declared charset; an unknown or missing label falls back to detection. */
export function decodeCharset(bytes: Buffer, charset: string | undefined): string {
  const label = charset?.trim().toLowerCase();
  if (label && iconv.encodingExists(label)) return decodeText(bytes, label).text;
  return decodeText(bytes).text;
}

/** Lines between `--boundary` delimiters; a message cut before its closing delimiter keeps the parts it has. */
function splitMultipart(body: string, boundary: string): string[] {
  const delimiter = `--${boundary}`;
  const parts: string[] = [];
  let current: string[] | undefined;
  for (const line of body.split(/\r?\n/)) {
    if (line.startsWith(delimiter)) {
      const rest = line.slice(delimiter.length);
      if (rest.startsWith('--')) {
        if (current) parts.push(current.join('\r\n'));
        return parts;
      }
      if (!rest.trim()) {
        if (current) parts.push(current.join('\r\n'));
        current = [];
        continue;
      }
    }
    current?.push(line);
  }
  if (current) parts.push(current.join('\r\n'));
  return parts;
}
