import anyTest, { type TestFn } from 'ava';
import { readFileSync } from 'node:fs';
import { allChunks, settledDocument, uploadFiles } from '../helpers/documents.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { sharedDoc, withSharedData } from '../helpers/shared-data.ts';

const test = anyTest as TestFn<{ server: TestServer; kb: string }>;

type Expect = { status: 'ready'; pages: number; text?: [string, number] } | { status: 'failed'; code: string };
const ready = (pages: number, text?: [string, number]): Expect => ({ status: 'ready', pages, text });
const failed = (code: string): Expect => ({ status: 'failed', code });

/** Every file of ../shared/data/docs and what the pipeline must make of it, through the HTTP API. */
const EXPECTED: Record<string, Record<string, Expect>> = {
  pdf: {
    'TAMReview.pdf': ready(23),
    'embedded-images-tables.pdf': ready(1),
    'irs-manual-transmittal-400p.pdf': ready(400),
    'korean-text-with-tables.pdf': ready(1),
    'layout-parser-paper-with-table.pdf': ready(1),
    'list-item-example.pdf': ready(2),
    'reliance.pdf': ready(3),
    'testPDF.pdf': ready(1),
    'tracemonkey.pdf': ready(14, ['Trace-based Just-in-Time Type Specialization', 1]),
  },
  scanned: {
    'loremipsum-flat.pdf': ready(1),
    'pdf-with-ocr-text.pdf': ready(1),
    'layout-parser-paper-with-table.jpg': ready(1),
    'eurotext.tif': ready(1),
    'phototest.tif': ready(1, ['quick brown dog', 1]),
    'testocr.png': ready(1),
    'cosmic.png': ready(1),
  },
  docx: {
    'category-level.docx': ready(1),
    'city-code-adu-stress023.docx': ready(15),
    'docx-tables.docx': ready(1),
    'example-list-items-multiple.docx': ready(1),
    'handbook-872p.docx': ready(427),
    'mammoth-footnotes.docx': ready(1),
    'mammoth-tables.docx': ready(1),
    // 49 rendered breaks (50 pages) and an unrendered stretch estimated at Word's measured page size: 53 (Word's own count says 52).
    'seer-cancer-stats-bug59058.docx': ready(53),
    'testWORD.docx': ready(2, ['This is back to the default again', 2]),
    'testWORD_numbered_list.docx': ready(3),
  },
  xlsx: {
    '2023-half-year-analyses-by-segment.xlsx': ready(5),
    'SampleSS.xlsx': ready(3),
    'formula_stress_test.xlsx': ready(10),
    'merge_cells.xlsx': ready(1),
    'more-than-1k-cells.xlsx': ready(1),
    'sheet_visibility.xlsx': ready(1),
    'stanley-cups.xlsx': ready(2, ['Team: Maple Leafs; Location: TOR; Stanley Cups: 0', 2]),
    'testEXCEL.xlsx': ready(3),
    'vodafone.xlsx': ready(1),
  },
  md: {
    'codeblock.md': ready(1),
    'simple-table.md': ready(1),
    'testMARKDOWN.md': ready(1),
    'umlauts-utf8.md': ready(1),
    'vite-guide-env-and-mode.md': ready(1),
    'vite-guide-index.md': ready(1),
  },
  // Every format of issue 15 but the OLE2 .ppt (eng_spa_mult.ppt is an OOXML package under that name).
  more: {
    'simple.doc': ready(1, ['DOYLESTOWN, PA 18901', 1]),
    'duplicate-paragraphs.doc': ready(1, ['This document contains duplicates', 1]),
    'simple.pptx': ready(2, ['How much is enough?', 2]),
    'fake-power-point-many-pages.pptx': ready(2, ['Page 2', 2]),
    // Slide 3 already mixes English and Spanish.
    'eng_spa_mult.ppt': ready(6, ['Todos los seres humanos nacen', 3]),
    'eng_spa_mult.epub': ready(1, ['reason and conscience', 1]),
    'fake-email-b64.eml': ready(1, ['Roses are red', 1]),
    // Its attachment is a document of its own (below).
    'email-equals-attachment-filename.eml': ready(1, ['odd=file=name.txt', 1]),
  },
  bad: {
    'copy-protected.pdf': ready(2),
    'empty.docx': failed('empty'),
    'empty.xlsx': failed('empty'),
    'password.pdf': failed('encrypted'),
    'password_protected.xlsx': failed('encrypted'),
    'poc-xmlbomb.xlsx': failed('unsafe_content'),
    'testWORD_protected_passtika.docx': failed('encrypted'),
    'testWORD_truncated.docx': failed('corrupt'),
    'text-disguised-as.docx': ready(1),
    'zipbomb-100MiB.docx': failed('too_large'),
  },
};

withSharedData(test, 'every file in ../shared/data/docs through the HTTP API', () => {
  test.before(async (t) => {
    t.context.server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0' });
    t.context.kb = (await t.context.server.call('POST', '/v1/knowledge-bases', { json: { name: 'shared docs' } })).body.id;
  });
  test.after.always((t) => t.context.server?.close());

  for (const [folder, files] of Object.entries(EXPECTED)) {
    test.serial(`docs/${folder}: every file reaches its status, page count and code`, async (t) => {
      t.timeout(240_000);
      const { server, kb } = t.context;
      const names = Object.keys(files);
      const res = await uploadFiles(server, kb, names.map((name) => ({ name, bytes: readFileSync(sharedDoc(folder, name)) })));
      t.is(res.status, 202, JSON.stringify(res.body));
      const docs = await Promise.all(res.body.data.map((d: { id: string }) => settledDocument(server, kb, d.id, 200_000)));
      for (const [i, name] of names.entries()) {
        const doc = docs[i];
        const expected = files[name]!;
        t.is(doc.name, name);
        t.is(doc.status, expected.status, `${name}: ${JSON.stringify(doc.error)}`);
        if (expected.status === 'failed') {
          t.is(doc.error?.code, expected.code, name);
          continue;
        }
        t.is(doc.page_count, expected.pages, name);
        // Estimated pages: the handbook (no rendered breaks, far more text than its explicit breaks
        // hold), seer's stretch Word never laid out (issue 36 item 2) and the .doc files (no layout kept).
        const estimated = ['handbook-872p.docx', 'seer-cancer-stats-bug59058.docx'].includes(name) || name.endsWith('.doc');
        t.is(doc.page_estimated, estimated, `${name}: page_estimated`);
        t.true(doc.chunk_count > 0, name);
        if (expected.text) {
          const [needle, page] = expected.text;
          const chunk = (await allChunks(server, kb, doc.id)).find((c) => c.paragraph.includes(needle));
          t.is(chunk?.page, page, `${name}: "${needle}"`);
        }
      }
      t.is((await server.call('GET', '/healthz', { key: null })).status, 200, 'the server still answers');
    });
  }
});

withSharedData(test, 'the shared email\'s attachment through the HTTP API', () => {
  test.serial('docs/more: the attachment of email-equals-attachment-filename.eml is a document of its own, linked to the email', async (t) => {
    const { server, kb } = t.context;
    const list = (await server.call('GET', `/v1/knowledge-bases/${kb}/documents?limit=100`)).body.data;
    const email = list.find((d: { name: string }) => d.name === 'email-equals-attachment-filename.eml');
    const attachment = list.find((d: { parent_document_id: string | null }) => d.parent_document_id === email?.id);
    t.like(attachment, { name: 'odd=file=name.txt', media_type: 'text/plain' });
    t.is((await settledDocument(server, kb, attachment.id)).status, 'ready');
    t.true((await allChunks(server, kb, attachment.id)).some((c) => c.paragraph.includes('Odd filename')));
  });
});
