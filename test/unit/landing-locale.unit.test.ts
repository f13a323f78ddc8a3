import test from 'ava';
import { pickLocale } from '../../web/landing/i18n.ts';

test('a browser whose first language is Chinese gets Simplified Chinese; any other, English', (t) => {
  for (const first of ['zh', 'zh-CN', 'zh-Hans-CN', 'ZH-cn', 'zh-TW']) t.is(pickLocale([first, 'en']).lang, 'zh-CN', first);
  for (const first of ['en-US', 'fr', 'zhx', '']) t.is(pickLocale([first, 'zh-CN']).lang, 'en', first);
  t.is(pickLocale([]).lang, 'en');
});

test('both languages have every string, and the accessible names the tests use', (t) => {
  const en = pickLocale(['en']).t;
  const zh = pickLocale(['zh']).t;
  t.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
  t.like(en, { message: 'Message', send: 'Send', helpful: 'Helpful', notHelpful: 'Not helpful' });
  t.is(en.citation(2), 'Citation 2');
  t.is(en.pageAlt(3, 'handbook.pdf'), 'Page 3 of handbook.pdf');
});
