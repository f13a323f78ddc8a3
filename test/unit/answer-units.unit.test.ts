import test from 'ava';
import { passageSentences } from '../../src/domain/answer/passage-sentences.ts';

const units = (text: string) => passageSentences([{ index: 1, text }]).map((s) => s.text);

test('every unit points at where it sits in the passage, whatever white space was collapsed', (t) => {
  const text = '  Der Vertrag  gilt\nab heute.  Er endet am 1. Januar 2030.\n\n- Kündigung: drei Monate';
  for (const s of passageSentences([{ index: 1, text }])) {
    t.is(text.slice(s.start, s.end).replace(/\s+/g, ' '), s.text);
  }
  t.deepEqual(units(text), ['Der Vertrag gilt ab heute.', 'Er endet am 1. Januar 2030.', 'Kündigung: drei Monate']);
});

test('ordinals and abbreviations in several languages do not end a sentence', (t) => {
  t.deepEqual(units('Sie besucht die 6. Jahrgangsstufe. Danach z. B. das Abitur.'), ['Sie besucht die 6. Jahrgangsstufe.', 'Danach z. B. das Abitur.']);
  t.deepEqual(units('Ул. Тверская — главная улица. Здание построено в 1930 г. и т. д. Оно высокое.'), ['Ул. Тверская — главная улица.', 'Здание построено в 1930 г. и т. д. Оно высокое.']);
  t.deepEqual(units('See Fig. 3 and Dr. Smith et al. for details. It works.'), ['See Fig. 3 and Dr. Smith et al. for details.', 'It works.']);
  t.deepEqual(units('The team scored 12. The crowd left.'), ['The team scored 12.', 'The crowd left.']);
});

test('Chinese and Japanese sentences end at their own full stops, without spaces', (t) => {
  t.deepEqual(units('北京是中国的首都。上海是最大的城市！你知道吗？'), ['北京是中国的首都。', '上海是最大的城市！', '你知道吗？']);
});

test('a dot-leader row is one unit with its number, and each table line stands alone', (t) => {
  const text = 'Schedule I\n(32) Levomoramide ........ 9629\n(33) Levophenacylmorphan ........ 9631';
  t.deepEqual(units(text), ['Schedule I', '(32) Levomoramide ........ 9629', '(33) Levophenacylmorphan ........ 9631']);
  t.true(passageSentences([{ index: 1, text }]).slice(1).every((s) => s.tableRow));
  t.deepEqual(units('| Year | Rate |\n| 2019 | 4.5 |\nThe rate rose.'), ['| Year | Rate |', '| 2019 | 4.5 |', 'The rate rose.']);
});
