import test from 'ava';
import { loadQuestions } from '../../bench/docs-questions.ts';
import { sharedDoc, withSharedData } from '../helpers/shared-data.ts';
import { blockWith, parsePath } from './parsing-fixtures.ts';

/** The Word 97-2003 files of ../shared/data/docs/more and the facts the docs question set asks of them. */

withSharedData(test, 'shared .doc files', () => {
  test('simple.doc: paragraphs and the bullet list in order, on one estimated page', async (t) => {
    const doc = await parsePath(sharedDoc('more', 'simple.doc'));
    t.is(doc.mediaType, 'application/msword');
    t.is(doc.pageCount, 1);
    t.true(doc.pageEstimated);
    t.deepEqual(
      doc.blocks.map((b) => `${b.kind}: ${b.text}`),
      [
        'paragraph: These are a few of my favorite things:',
        'list_item: Parrots',
        'list_item: Hockey',
        'paragraph: Analysis',
        'paragraph: This is my first thought. This is my second thought.',
        'paragraph: This is my third thought.',
        'paragraph: 2023',
        'paragraph: DOYLESTOWN, PA 18901',
      ],
    );
  });

  test('duplicate-paragraphs.doc: repeated paragraphs are all kept', async (t) => {
    const doc = await parsePath(sharedDoc('more', 'duplicate-paragraphs.doc'));
    t.is(doc.blocks.filter((b) => b.text === 'some text').length, 6);
  });

  test('every .doc question of the docs set finds its expected text in the parsed file', async (t) => {
    const questions = loadQuestions().filter((q) => q.file?.endsWith('.doc'));
    t.true(questions.length >= 3);
    for (const q of questions) {
      const doc = await parsePath(sharedDoc(q.file!));
      t.truthy(q.expected!.some((fact) => blockWith(doc, fact)), q.id);
    }
  });
});
