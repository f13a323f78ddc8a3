import test from 'ava';
import { DOCUMENT_FAILURES } from '../../src/domain/document/failures.ts';
import { NOT_COVERED_ANSWER, notCoveredAnswer } from '../../src/domain/chat/not-covered.ts';
import { API_ERROR_TEXT, apiErrorSaid, DOCUMENT_FAILURE_TEXT, documentFailureSaid, NOT_COVERED_TEXT } from '../../web/console/src/i18n/server-codes.ts';

const LANGUAGES = ['en', 'zh-CN'] as const;

test('every failure code of the server’s catalogue has the console’s words in en and zh-CN, its English the server’s word for word', (t) => {
  for (const [code, english] of Object.entries(DOCUMENT_FAILURES)) {
    for (const language of LANGUAGES) t.true(Boolean(DOCUMENT_FAILURE_TEXT[language][code]?.trim()), `${code} in ${language}`);
    t.is(DOCUMENT_FAILURE_TEXT.en[code], english, `${code}: one voice`);
  }
  // No translation of a code the server does not report.
  t.deepEqual(Object.keys(DOCUMENT_FAILURE_TEXT.en).sort(), Object.keys(DOCUMENT_FAILURES).sort());
  t.deepEqual(Object.keys(DOCUMENT_FAILURE_TEXT['zh-CN']).sort(), Object.keys(DOCUMENT_FAILURES).sort());
});

test('every API error code the console translates has both languages, in sentences', (t) => {
  t.deepEqual(Object.keys(API_ERROR_TEXT['zh-CN']).sort(), Object.keys(API_ERROR_TEXT.en).sort());
  for (const [code, english] of Object.entries(API_ERROR_TEXT.en)) t.regex(english, /^[A-Z].*\.$/, code);
  for (const [code, chinese] of Object.entries(API_ERROR_TEXT['zh-CN'])) t.regex(chinese, /。$/, code);
});

test('the console’s not-covered notice is the server’s, in English and in Chinese', (t) => {
  t.is(NOT_COVERED_TEXT.en, NOT_COVERED_ANSWER);
  t.is(NOT_COVERED_TEXT['zh-CN'], notCoveredAnswer('zh'));
});

test('a known code in the console’s words with the server’s particulars under them; an unknown one in the server’s', (t) => {
  const locked = { code: 'encrypted', message: DOCUMENT_FAILURES.encrypted, detail: 'The PDF is password-protected.' };
  t.deepEqual(documentFailureSaid('zh-CN', locked), { text: DOCUMENT_FAILURE_TEXT['zh-CN'].encrypted!, detail: 'The PDF is password-protected.' });
  t.deepEqual(documentFailureSaid('en', { code: 'empty', message: DOCUMENT_FAILURES.empty }), { text: DOCUMENT_FAILURES.empty });
  t.deepEqual(documentFailureSaid('zh-CN', { code: 'from_the_future', message: 'Something new.' }), { text: 'Something new.' });
  // Every "…_not_found" is one text; the server's sentence names what was not found.
  t.deepEqual(apiErrorSaid('zh-CN', { code: 'knowledge_base_not_found', message: "No knowledge base found with id 'kb_x'." }), {
    text: API_ERROR_TEXT['zh-CN'].not_found!,
    detail: "No knowledge base found with id 'kb_x'.",
  });
  t.deepEqual(apiErrorSaid('en', { code: 'in_use', message: "Cannot delete model provider 'loop'." }), { text: "Cannot delete model provider 'loop'." });
});
