import test from 'ava';
import { secretScrubber, scrubValue } from '../../src/lib/secret-scrub.ts';

const SECRET = 'Bearer tok-12345/67+89"&<x>';
const scrub = secretScrubber([SECRET]);
const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');
const hex = (text: string) => Buffer.from(text).toString('hex');
const codes = [...SECRET].map((c) => c.charCodeAt(0));

/** Every form an echoing server was seen to use, and the ones it could as cheaply. */
const ECHOES: Record<string, string> = {
  exact: SECRET,
  'upper case': SECRET.toUpperCase(),
  'lower case': SECRET.toLowerCase(),
  reversed: [...SECRET].reverse().join(''),
  base64: b64(SECRET),
  'base64 url-safe': b64url(SECRET),
  'base64, inside a longer blob at offset 1': b64(`x${SECRET}tail`),
  'base64, inside a longer blob at offset 2': b64(`xy${SECRET}tail`),
  'base64, inside a longer blob at offset 0': b64(`xyz${SECRET}tail`),
  'base64 url-safe, inside a blob at offset 1': b64url(`{"auth":"${SECRET}"}`),
  'the credential alone, base64': b64(SECRET.slice('Bearer '.length)),
  'hex, lower case': hex(SECRET),
  'hex, upper case': hex(SECRET).toUpperCase(),
  'percent-encoded': encodeURIComponent(SECRET),
  'percent-encoded, lower-case escapes': encodeURIComponent(SECRET).toLowerCase(),
  'form-encoded': new URLSearchParams({ a: SECRET }).toString().slice(2),
  'every byte percent-encoded': hex(SECRET).replace(/(..)/g, '%$1'),
  'JSON-escaped': JSON.stringify(SECRET).slice(1, -1),
  'JSON \\u escapes': codes.map((c) => `\\u${c.toString(16).padStart(4, '0')}`).join(''),
  'HTML-escaped': SECRET.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'),
  'HTML decimal entities': codes.map((c) => `&#${c};`).join(''),
  'HTML hex entities': codes.map((c) => `&#x${c.toString(16)};`).join(''),
};

for (const [name, echo] of Object.entries(ECHOES)) {
  test(`scrubs the secret echoed ${name}`, (t) => {
    const out = scrub(`you sent <<${echo}>> to us`);
    t.true(out.includes('[secret]'), out);
    t.false(out.includes(echo), out);
    // What is left around the replacement (the encoded text around it) decodes to nothing of the secret.
    for (const rest of out.split('[secret]')) t.false(Buffer.from(rest.replace(/.*<</, '').replace(/>>.*/, ''), 'base64').toString('latin1').includes('tok-1'), out);
  });
}

test('a Basic credential is scrubbed decoded too, and its password alone', (t) => {
  const basic = secretScrubber([`Basic ${b64('alice:correct-horse')}`]);
  t.is(basic('hello alice:correct-horse'), 'hello [secret]');
  t.is(basic('pw=correct-horse'), 'pw=[secret]');
});

test('ordinary text is left as it is; short values are not scrubbed', (t) => {
  const text = 'The quick brown fox jumps over the lazy dog. {"ok":true} aGVsbG8= 0123456789abcdef';
  t.is(scrub(text), text);
  t.is(secretScrubber(['abc'])('abc abc'), 'abc abc');
  t.is(secretScrubber([])('anything'), 'anything');
});

test('scrubValue scrubs every string of a parsed JSON body, keys included', (t) => {
  t.deepEqual(scrubValue({ [SECRET]: [SECRET, 1, { a: `x${SECRET}` }], n: null }, scrub), { '[secret]': ['[secret]', 1, { a: 'x[secret]' }], n: null });
});
