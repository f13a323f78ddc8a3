import test from 'ava';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readPackedNgrams, WRITE_NGRAM_LINES } from '../../src/parsing/language/eld-ngrams.ts';

type Result = { language: string; isReliable(): boolean; getScores(): Record<string, number> };
type Eld = { detect(text: string): Result };
type CreateEld = () => { instance: Eld; loadData(data: unknown): unknown };

// eld's src/, as eld-database.ts finds it (eld's exports map names neither file read here).
const eldSrc = join(dirname(fileURLToPath(import.meta.resolve('eld'))), '..');
const load = async <T>(path: string) => (await import(pathToFileURL(join(eldSrc, path)).href)) as T;

/** Sentences in many scripts, the openings of them (what short queries look like), and noise. */
function texts(): string[] {
  const sentences = [
    'The committee published its annual report on Tuesday, describing how the new policy had changed school funding.',
    'Der Ausschuss veröffentlichte am Dienstag seinen Jahresbericht über die Finanzierung der Schulen.',
    "Le comité a publié mardi son rapport annuel sur le financement des écoles.",
    'El comité publicó el martes su informe anual sobre la financiación de las escuelas.',
    'Il comitato ha pubblicato martedì la sua relazione annuale sul finanziamento delle scuole.',
    'Komitet opublikował we wtorek swoje roczne sprawozdanie o finansowaniu szkół.',
    'Комитет опубликовал во вторник свой ежегодный доклад о финансировании школ.',
    'Комітет оприлюднив у вівторок свою щорічну доповідь про фінансування шкіл.',
    'Η επιτροπή δημοσίευσε την Τρίτη την ετήσια έκθεσή της για τη χρηματοδότηση των σχολείων.',
    'Komite salı günü okulların finansmanı hakkındaki yıllık raporunu yayımladı.',
    'نشرت اللجنة تقريرها السنوي يوم الثلاثاء حول تمويل المدارس.',
    'הוועדה פרסמה ביום שלישי את הדוח השנתי שלה על מימון בתי הספר.',
    'समिति ने मंगलवार को स्कूलों के वित्तपोषण पर अपनी वार्षिक रिपोर्ट प्रकाशित की।',
    '委员会周二发布了关于全国学校资金筹措的年度报告。',
    '委員会は火曜日に学校の資金調達に関する年次報告書を発表した。',
    '위원회는 화요일에 학교 재정 지원에 관한 연례 보고서를 발표했다.',
    'Ủy ban đã công bố báo cáo thường niên về tài chính trường học vào thứ Ba.',
    'Utskottet publicerade på tisdagen sin årliga rapport om skolornas finansiering.',
  ];
  const openings = sentences.flatMap((s) => [s.split(' ').slice(0, 1).join(' '), s.split(' ').slice(0, 3).join(' '), s.slice(0, 8)]);
  const noise = ['', ' ', '1234 5678 !!!', 'https://example.com/a?b=c', 'ÿþ\u0000\u0001 "quoted" \\ back', 'aaaa bbbb cccc'];
  return [...sentences, ...openings, ...noise, sentences.join(' ')];
}

/**
 * The packed n-grams answer every detection exactly as eld's own database does: the same
 * language, reliability and scores, for sentences, the few words a query has, and noise.
 */
test('detection over the packed n-grams is eld’s own, score for score', async (t) => {
  const { createEld } = await load<{ createEld: CreateEld }>('languageDetector.js');
  const { ngramsData } = await load<{ ngramsData: unknown }>('ngrams/medium.js');
  const own = createEld();
  own.loadData(ngramsData);
  // The conversion's own script, with its output caught.
  let lines = '';
  new Function('m', 'process', WRITE_NGRAM_LINES)({ ngramsData }, { stdout: { write: (s: string) => (lines += s) } });
  const { header, ngrams } = readPackedNgrams(lines);
  const packed = createEld();
  packed.loadData({ ...header, ngrams: ngrams.asEldNgrams() });
  t.is(packed.instance.detect(texts()[0]!).language, 'en');
  t.log(`packed n-grams hold ${(ngrams.bytes() / 1e6).toFixed(1)} MB`);
  for (const text of texts()) {
    const [a, b] = [own.instance.detect(text), packed.instance.detect(text)];
    t.deepEqual({ language: b.language, reliable: b.isReliable(), scores: b.getScores() }, { language: a.language, reliable: a.isReliable(), scores: a.getScores() }, text);
  }
});

test('an n-gram the database lacks has no scores', (t) => {
  const { ngrams } = readPackedNgrams(`{"type":"t","languages":{"0":"en"},"isSubset":false}\n["ab",{"0":7,"12":200}]\n["\\"\\\\",{"3":1}]`);
  t.deepEqual({ ...ngrams.get('ab') }, { 0: 7, 12: 200 });
  t.deepEqual({ ...ngrams.get('"\\') }, { 3: 1 });
  t.is(ngrams.get('abc'), undefined);
  t.is(ngrams.asEldNgrams()['zz'], undefined);
});
