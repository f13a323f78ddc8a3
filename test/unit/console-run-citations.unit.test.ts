import test from 'ava';
import { runCitations } from '../../web/console/src/capabilities/workflows/canvas/run-citations.ts';

const passage = (chunk: string, page: number, doc = 'doc_1') => ({ index: 1, source: 'zephyr.pdf', page, document_id: doc, knowledge_base_id: 'kb_1', chunk_id: chunk, quote: { text: `quote ${chunk}`, start: 0, end: 5 } });

test('a run’s citations: one entry per document and page, the first passage’s quote and chunk in its link', (t) => {
  const listed = runCitations([passage('c1', 1), passage('c2', 1), passage('c3', 2), passage('c4', 1), passage('c5', 1, 'doc_2')]);
  t.deepEqual(
    listed.map(({ source, page, passages, quote, href }) => ({ source, page, passages, quote, href })),
    [
      { source: 'zephyr.pdf', page: 1, passages: 3, quote: 'quote c1', href: '/knowledge-bases/kb_1/documents/doc_1?chunk=c1&page=1' },
      { source: 'zephyr.pdf', page: 2, passages: 1, quote: 'quote c3', href: '/knowledge-bases/kb_1/documents/doc_1?chunk=c3&page=2' },
      { source: 'zephyr.pdf', page: 1, passages: 1, quote: 'quote c5', href: '/knowledge-bases/kb_1/documents/doc_2?chunk=c5&page=1' },
    ],
  );
});

test('what a run’s outputs carry is open: no link without ids, no page without one, nothing for what names no source', (t) => {
  const listed = runCitations([{ source: 'notes.md' }, { source: 'notes.md' }, 'stray', null, { quote: 'x' }]);
  t.deepEqual(listed.map(({ source, page, passages, href }) => ({ source, page, passages, href })), [{ source: 'notes.md', page: null, passages: 2, href: null }]);
  t.deepEqual(runCitations(undefined), []);
});
