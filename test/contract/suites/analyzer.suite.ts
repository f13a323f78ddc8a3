import type { ExecutionContext, TestFn } from 'ava';
import type { Analyzer } from '../../../src/ports/analyzer.ts';

const PARAGRAPHS: Record<string, string> = {
  en: 'The committee published its annual report on Tuesday, describing how the new policy had changed the way schools are funded across the country.',
  de: 'Der Ausschuss veröffentlichte am Dienstag seinen Jahresbericht und beschrieb, wie die neue Politik die Finanzierung der Schulen im ganzen Land verändert hatte.',
  fr: "Le comité a publié mardi son rapport annuel, décrivant comment la nouvelle politique avait changé la manière dont les écoles sont financées dans tout le pays.",
  es: 'El comité publicó el martes su informe anual, en el que describe cómo la nueva política ha cambiado la forma en que se financian las escuelas en todo el país.',
  ru: 'Комитет опубликовал во вторник свой ежегодный доклад, в котором описал, как новая политика изменила порядок финансирования школ по всей стране.',
  zh: '委员会周二发布了年度报告，描述了新政策如何改变了全国学校的资金筹措方式。',
  ja: '委員会は火曜日に年次報告書を発表し、新しい政策が全国の学校の資金調達の方法をどのように変えたかを説明した。',
  ar: 'نشرت اللجنة تقريرها السنوي يوم الثلاثاء، ووصفت فيه كيف غيرت السياسة الجديدة طريقة تمويل المدارس في جميع أنحاء البلاد.',
  ko: '위원회는 화요일에 연례 보고서를 발표하고 새로운 정책이 전국 학교의 재정 지원 방식을 어떻게 바꾸었는지 설명했다.',
};

/** What every Analyzer owes: one normalisation, per-language stop words and stems, offsets into the original, and no way to make it throw. */
export function testAnalyzer(test: TestFn, name: string, make: () => Promise<Analyzer>) {
  const it = (title: string, body: (t: ExecutionContext, analyzer: Analyzer) => void | Promise<void>) =>
    test(`${name} › ${title}`, async (t) => body(t, await make()));

  it('NFKC: full-width letters and ligatures are the plain words', (t, a) => {
    t.deepEqual(a.terms('ＡＢＣ ｆｕｌｌ', 'en'), a.terms('abc full', 'en'));
    t.deepEqual(a.terms('ﬁnancial', 'en'), a.terms('financial', 'en'));
  });
  it('case folding', (t, a) => {
    t.deepEqual(a.terms('PROTEIN Kinase', 'en'), a.terms('protein kinase', 'en'));
    t.deepEqual(a.terms('ÉCOLE', 'fr'), a.terms('école', 'fr'));
    t.deepEqual(a.terms('МОСКВА', 'ru'), a.terms('москва', 'ru'));
  });
  it('diacritics fold where readers type without them, and stay where marks are letters', (t, a) => {
    t.deepEqual(a.terms('café naïve', 'en'), a.terms('cafe naive', 'en'));
    t.deepEqual(a.terms('écoles', 'fr'), a.terms('ecoles', 'fr'));
    t.deepEqual(a.terms('canción', 'es'), a.terms('cancion', 'es'));
    t.deepEqual(a.terms('Äpfel', 'de'), a.terms('apfel', 'de'));
    t.deepEqual(a.terms('ёлка', 'ru'), a.terms('елка', 'ru'));
    t.notDeepEqual(a.terms('йод', 'ru'), a.terms('иод', 'ru'), 'й is a letter of its own');
    t.notDeepEqual(a.terms('किताब', 'hi'), a.terms('कतब', 'hi'), 'Devanagari vowel signs are letters');
  });
  it('stop words per language', (t, a) => {
    t.deepEqual(a.terms('the and of', 'en'), []);
    t.deepEqual(a.terms('und der die', 'de'), []);
    t.deepEqual(a.terms('les et des', 'fr'), []);
    t.deepEqual(a.terms('el los y', 'es'), []);
    t.deepEqual(a.terms('и в на', 'ru'), []);
    t.deepEqual(a.tokens('the cat', 'en').map((k) => k.stop), [true, false], 'tokens mark stop words rather than drop them');
  });
  it('stemming per language', (t, a) => {
    t.is(a.terms('running', 'en')[0], a.terms('runs', 'en')[0]);
    t.is(a.terms('fractures', 'en')[0], a.terms('fracturing', 'en')[0]);
    t.is(a.terms('Häuser', 'de')[0], a.terms('Haus', 'de')[0]);
    t.is(a.terms('nationales', 'fr')[0], a.terms('national', 'fr')[0]);
    t.is(a.terms('políticas', 'es')[0], a.terms('política', 'es')[0]);
    t.is(a.terms('книги', 'ru')[0], a.terms('книгой', 'ru')[0]);
    t.deepEqual(a.terms('running', 'und'), ['running'], "'und' does not stem");
  });
  it('Chinese, Japanese and Thai runs are split into words, not kept whole', (t, a) => {
    const zh = a.terms('委员会周二发布了年度报告', 'zh');
    t.true(zh.length >= 4, JSON.stringify(zh));
    t.true(zh.some((x) => x.includes('报告')));
    t.false(zh.includes('委员会周二发布了年度报告'));
    const ja = a.terms('東京は日本の首都です', 'ja');
    t.true(ja.some((x) => x.includes('東京')) && ja.some((x) => x.includes('首都')), JSON.stringify(ja));
    const th = a.terms('ภาษาไทยเป็นภาษาราชการ', 'th');
    t.true(th.length >= 3 && th.includes('ราชการ'), JSON.stringify(th));
  });
  it('Arabic and Korean words', (t, a) => {
    t.true(a.terms('الكتاب والمدرسة', 'ar').length === 2);
    t.is(a.terms('الْكِتَاب', 'ar')[0], a.terms('الكتاب', 'ar')[0], 'vowel points fold');
    t.true(a.terms('서울은 한국의 수도입니다', 'ko').length >= 3);
  });
  it('offsets slice the original text, whatever normalisation changed', (t, a) => {
    const text = 'ﬁnal Ｆｕｌｌ Café 東京は日本 e\u0301te\u0301 𝐁𝐨𝐥𝐝 straße';
    const tokens = a.tokens(text, 'en');
    t.true(tokens.length >= 6);
    for (const k of tokens) {
      t.true(k.start >= 0 && k.end <= text.length && k.start < k.end);
      t.regex(text.slice(k.start, k.end), /^[\p{L}\p{N}\p{M}]+$/u);
    }
    t.deepEqual(tokens.slice(0, 3).map((k) => text.slice(k.start, k.end)), ['ﬁnal', 'Ｆｕｌｌ', 'Café']);
    t.deepEqual(tokens.slice(0, 3).map((k) => k.word), ['final', 'full', 'cafe']);
    t.true(tokens.some((k) => text.slice(k.start, k.end) === 'e\u0301te\u0301' && k.word === 'ete'));
    t.true(tokens.some((k) => k.word === 'bold'), 'mathematical bold letters are letters, NFKC makes them plain');
  });
  it('terms are the tokens that are not stop words', (t, a) => {
    for (const [language, text] of Object.entries(PARAGRAPHS)) {
      t.deepEqual(a.terms(text, language), a.tokens(text, language).filter((k) => !k.stop).map((k) => k.term), language);
      t.deepEqual(a.terms(text), a.terms(text, a.detectLanguage(text)), `${language}: no language means the detected one`);
    }
  });
  it('hostile input never throws and stays fast', (t, a) => {
    const hostile = [
      '\ud800\udc00\ud800 x \udfff y',
      'a'.repeat(1 << 20),
      '中'.repeat(1 << 18),
      `e${'\u0301'.repeat(100_000)} z`,
      '\u0301'.repeat(10_000),
      '\u0000\uffff\ufeff',
      '',
    ];
    const started = performance.now();
    for (const text of hostile) {
      t.notThrows(() => a.terms(text));
      t.notThrows(() => a.tokens(text, 'en'));
      t.notThrows(() => a.detectLanguage(text));
    }
    t.true(performance.now() - started < 5000, `${Math.round(performance.now() - started)} ms`);
    t.deepEqual(a.terms(''), []);
    t.deepEqual(a.terms('a'.repeat(1 << 20), 'en'), [], 'a word too long to be one is no term');
  });
  it('detects the language of clear paragraphs', (t, a) => {
    for (const [language, text] of Object.entries(PARAGRAPHS)) t.is(a.detectLanguage(text), language);
    t.is(a.detectLanguage('1234 5678 !!!'), 'und');
  });
  it('names its version and languages', (t, a) => {
    t.true(a.version.length > 0);
    for (const language of ['en', 'de', 'fr', 'es', 'ru', 'zh', 'ja', 'ar', 'ko']) t.true(a.languages.includes(language), language);
  });
}
