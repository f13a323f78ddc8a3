import test from 'ava';
import { DOCUMENT_FAILURES, failureReport, reportOfRecorded, scrubDetail } from '../../src/domain/document/failures.ts';

test('every sentence of the catalogue is one sentence: a capital first, a full stop last, no library named', (t) => {
  for (const [code, message] of Object.entries(DOCUMENT_FAILURES)) {
    t.regex(message, /^[A-Z].*\.$/s, code);
    t.notRegex(message, /[.!?]\s+[A-Z]/, `${code}: one sentence`);
    t.notRegex(message, /pdf\.js|mammoth|exceljs|tesseract|zod/i, code);
  }
});

test('a detail loses local paths, keeps addresses and a part’s name, and is cut to a length', (t) => {
  t.is(scrubDetail('ENOENT: no such file, open /tmp/kbqa-blobs/ab/cdef.bin'), 'ENOENT: no such file, open …');
  t.is(scrubDetail('Could not open C:\\Users\\kbqa\\data\\x.pdf today'), 'Could not open … today');
  t.is(scrubDetail('The embedding provider at http://127.0.0.1:11434/v1 could not be reached.'), 'The embedding provider at http://127.0.0.1:11434/v1 could not be reached.');
  t.is(scrubDetail('The part xl/worksheets/sheet1.xml is damaged.'), 'The part xl/worksheets/sheet1.xml is damaged.');
  t.is(scrubDetail(' \n '), undefined);
  t.is(scrubDetail('x'.repeat(1000))!.length, 300);
});

test('a new failure: the catalogue’s sentence, the detail only when it says something else', (t) => {
  t.deepEqual(failureReport('encrypted', 'The PDF is password-protected.'), { code: 'encrypted', message: DOCUMENT_FAILURES.encrypted, detail: 'The PDF is password-protected.' });
  t.deepEqual(failureReport('blob_missing'), { code: 'blob_missing', message: DOCUMENT_FAILURES.blob_missing });
  t.deepEqual(failureReport('empty', DOCUMENT_FAILURES.empty), { code: 'empty', message: DOCUMENT_FAILURES.empty });
});

test('a recorded failure reported again is unchanged: reading it twice is reading it once', (t) => {
  for (const recorded of [
    { code: 'encrypted', message: 'the PDF is protected by a password' },
    { code: 'gremlins', message: 'OCR of the image did not finish in time.' },
    { code: 'corrupt', message: DOCUMENT_FAILURES.corrupt, detail: 'pdf.js could not read the file: Invalid PDF structure.' },
  ]) {
    const once = reportOfRecorded(recorded);
    t.deepEqual(reportOfRecorded(once), once, recorded.message);
  }
  t.is(reportOfRecorded({ code: 'gremlins', message: 'OCR of the image did not finish in time.' }).code, 'timeout');
});
