import test from 'ava';
import { joinLines } from '../../src/parsing/language/text-join.ts';
import { normalizeText } from '../../src/parsing/language/text-normalize.ts';
import { brokenGlyphWords, repairText } from '../../src/parsing/language/text-repair.ts';
import { textQuality } from '../../src/parsing/language/text-quality.ts';

test('ligature code points become letters', (t) => {
  t.is(repairText('ﬁnd the ﬂow in the oﬃce, ﬀ ﬄ'), 'find the flow in the office, ff ffl');
});

test('compatibility characters that carry meaning are kept (not a blanket NFKC)', (t) => {
  t.is(repairText('12 m² of ½ acre™'), '12 m² of ½ acre™');
  t.is(repairText('ＡＢＣ１２'), 'ABC12');
});

test('a broken glyph map: ↵ inside a word is the ff ligature', (t) => {
  t.is(repairText('e↵orts and di↵erent'), 'efforts and different');
  // Outside a word an arrow is an arrow.
  t.is(repairText('press ↵ to go on'), 'press ↵ to go on');
  t.deepEqual(brokenGlyphWords('e↵orts are x\uE001y fine'), ['e↵orts', 'x\uE001y']);
});

test('TeX accents set as glyphs of their own go back onto their letters', (t) => {
  t.is(repairText('a na¨ıve Andr´e, G¨odel'), 'a naïve André, Gödel');
  t.is(repairText('don´t'), 'don´t');
});

test('soft hyphens are removed and lines join across hyphenation in Latin and Cyrillic', (t) => {
  t.is(normalizeText('hy\u00ADphen\u00ADated'), 'hyphenated');
  t.is(joinLines(['the most effi-', 'cient way']), 'the most efficient way');
  t.is(joinLines(['эффек-', 'тивный']), 'эффективный');
  t.is(joinLines(['über Verän-', 'derungen']), 'über Veränderungen');
});

test('a hyphen that belongs to a compound stays', (t) => {
  t.is(joinLines(['Trace-', 'Monkey']), 'Trace-Monkey');
  t.is(joinLines(['a self-', 'aware system']), 'a self-aware system');
  t.is(joinLines(['the state-of-', 'the-art result']), 'the state-of-the-art result');
  t.is(joinLines(['send an e-', 'mail']), 'send an e-mail');
});

test('private-use and arrow characters inside words do not read as words', (t) => {
  t.true(textQuality('\uE041\uE042\uE043 \uE044\uE045 \uE046\uE047\uE048 \uE049\uE04A \uE04B\uE04C \uE04D\uE04E\uE04F \uE050\uE051 \uE052\uE053 \uE054\uE055').score < 0.2);
});
