import test from 'ava';
import { normalisedWithOrigin } from '../../src/domain/answer/whitespace.ts';

/** The definition: runs of what /\s/u matches become one space, the ends trimmed. */
function reference(text: string, start: number, end: number) {
  let normal = '';
  const origin: number[] = [];
  let space = false;
  for (let i = start; i < end; i++) {
    if (/\s/u.test(text[i]!)) {
      space = normal.length > 0;
      continue;
    }
    if (space) (normal += ' '), origin.push(i - 1), (space = false);
    normal += text[i];
    origin.push(i);
  }
  return { normal, origin };
}

test('white space runs become one space and each character keeps where it came from', (t) => {
  const text = '  The\u00a0cat \n\t sat.\u3000\u2028 ';
  const { normal, origin } = normalisedWithOrigin(text);
  t.is(normal, 'The cat sat.');
  // A joining space points at the last white space it stands for (the nbsp at 5, the space at 12).
  t.deepEqual([...origin], [2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 15, 16]);
});

test('agrees with the regex definition on every kind of space, surrogates and sub-ranges', (t) => {
  const alphabet = ['a', 'Z', '9', '.', ' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u1680', '\u2003', '\u200a', '\u200b', '\u2028', '\u202f', '\u205f', '\u3000', '\ufeff', '\u0085', '😀', '\ud800', 'é'];
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000);
  for (let n = 0; n < 2000; n++) {
    const text = Array.from({ length: Math.floor(random() * 30) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    const start = Math.floor(random() * (text.length + 1));
    const end = start + Math.floor(random() * (text.length - start + 1));
    const got = normalisedWithOrigin(text, start, end);
    const want = reference(text, start, end);
    if (got.normal !== want.normal || got.origin.join() !== want.origin.join()) return t.fail(JSON.stringify({ text, start, end }));
  }
  t.pass();
});
