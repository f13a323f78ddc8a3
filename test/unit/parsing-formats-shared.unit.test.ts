import test from 'ava';
import { sharedDoc, withSharedData } from '../helpers/shared-data.ts';
import { blockWith, pageOf, parsePath } from './parsing-fixtures.ts';

/**
 * The presentations, e-book and emails of ../shared/data/docs/more, with the text the
 * issue-15 questions of bench/data/docs-questions.jsonl need, on the page they name.
 */

type Expectation = { type: string; pages: number; onPage: [string, number][] };

const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

const FILES: Record<string, Expectation> = {
  'simple.pptx': { type: PPTX, pages: 2, onPage: [['Title Slide', 1], ['How much is enough?', 2]] },
  'fake-power-point-many-pages.pptx': { type: PPTX, pages: 2, onPage: [['Page 1', 1], ['Page 2', 2]] },
  // Named .ppt, but an OOXML package: the bytes decide.
  'eng_spa_mult.ppt': { type: PPTX, pages: 6, onPage: [['This is a slide note.', 1], ['Todos los seres humanos nacen libres e iguales en dignidad y derechos', 3]] },
  'eng_spa_mult.epub': { type: 'application/epub+zip', pages: 1, onPage: [['endowed with reason and conscience', 1]] },
  'fake-email-b64.eml': { type: 'message/rfc822', pages: 1, onPage: [['Test Email', 1], ['Roses are red', 1]] },
  'email-equals-attachment-filename.eml': { type: 'message/rfc822', pages: 1, onPage: [['Below is an example of an odd filename', 1], ['odd=file=name.txt', 1]] },
};

withSharedData(test, 'shared pptx, epub and eml files', () => {
  for (const [name, expected] of Object.entries(FILES)) {
    test(`${name}: type, pages, text on its page`, async (t) => {
      const doc = await parsePath(sharedDoc('more', name));
      t.is(doc.mediaType as string, expected.type);
      t.is(doc.pageCount, expected.pages);
      for (const [needle, page] of expected.onPage) t.is(pageOf(doc, needle), page, needle);
    });
  }

  test('email-equals-attachment-filename.eml: the attachment, base64 decoded, handed back under its odd name', async (t) => {
    const doc = await parsePath(sharedDoc('more', 'email-equals-attachment-filename.eml'));
    t.deepEqual(doc.attachments?.map((a) => a.name), ['odd=file=name.txt']);
    t.regex(Buffer.from(doc.attachments![0]!.bytes).toString('utf8'), /Odd filename/);
  });

  test('eng_spa_mult.ppt: the speaker note sits under "Notes" below the slide title', async (t) => {
    const doc = await parsePath(sharedDoc('more', 'eng_spa_mult.ppt'));
    t.deepEqual(blockWith(doc, 'This is a slide note.')?.headingPath, ['Testing multiple languages', 'Notes']);
  });
});
