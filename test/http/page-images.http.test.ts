import test from 'ava';
import { writeFileSync } from 'node:fs';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { allChunks, settledDocument, uploadFiles } from '../helpers/documents.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { pdf, SCAN_LINES, textImage } from '../unit/parsing-pdf-fixtures.ts';

/**
 * The citation contract end to end: a PDF with known words at known places (pdfkit's own
 * coordinates, in points on a 612 × 792 letter page) is uploaded; its citations and search hits
 * locate those words, and the page image highlights them, pixel for pixel.
 */

type Box = { x0: number; y0: number; x1: number; y1: number; start: number };
const PAGE = { width: 612, height: 792 };
const CITED = 'The lighthouse keeper counted forty-two herring boats in the harbour during March.';
const FAR = 'Quartz deposits were found beneath the northern pier during the survey of May.';
const AT = { x: 72, y: 300, far: 620, size: 12 };

let server: TestServer;
let kbId: string;
let pdfId: string;
/** Where pdfkit put the word "herring": its box in points. */
let herring: { x0: number; x1: number; top: number; bottom: number };

test.before(async () => {
  server = await startServer();
  ({ body: { id: kbId } } = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'boxes' } }));
  const bytes = await pdf((doc) => {
    doc.fontSize(AT.size).text('A first page about something else entirely, the weather at sea in winter.', AT.x, 100);
    doc.addPage();
    doc.fontSize(AT.size).text(CITED, AT.x, AT.y, { lineBreak: false });
    const x0 = AT.x + doc.widthOfString('The lighthouse keeper counted forty-two ');
    herring = { x0, x1: x0 + doc.widthOfString('herring'), top: AT.y, bottom: AT.y + doc.currentLineHeight() };
    // A heading starts a new chunk: the far paragraph is not part of the cited one.
    doc.fontSize(20).text('Geology', AT.x, AT.far - 40, { lineBreak: false });
    doc.fontSize(AT.size).text(FAR, AT.x, AT.far, { lineBreak: false });
  });
  const upload = await uploadFiles(server, kbId, [{ name: 'harbour.pdf', bytes, type: 'application/pdf' }]);
  pdfId = upload.body.data[0].id;
  t_ready(await settledDocument(server, kbId, pdfId));
});
test.after.always(() => server?.close());

function t_ready(doc: { status: string; error?: unknown }) {
  if (doc.status !== 'ready') throw new Error(`fixture ${doc.status}: ${JSON.stringify(doc.error)}`);
}

/** A point in points is inside one of the boxes (fractions of the page). */
const covers = (boxes: Box[], x: number, y: number) =>
  boxes.some((b) => b.x0 * PAGE.width <= x && x <= b.x1 * PAGE.width && b.y0 * PAGE.height <= y && y <= b.y1 * PAGE.height);
const middle = () => ({ x: (herring.x0 + herring.x1) / 2, y: (herring.top + herring.bottom) / 2 });

test('a chat citation carries its page, heading path, quote offsets and the boxes of the quoted line', async (t) => {
  const { status, body } = await server.call('POST', '/v1/chat', {
    json: { model: 'kbqa-extractive', knowledge_base_id: kbId, messages: [{ role: 'user', content: 'How many herring boats did the lighthouse keeper count?' }] },
  });
  t.is(status, 200, JSON.stringify(body));
  const citation = body.citations.find((c: { quote: unknown }) => c.quote);
  t.truthy(citation, JSON.stringify(body));
  t.is(citation.page, 2);
  t.deepEqual(citation.heading_path, [], 'the cited paragraph sits under no heading');
  // char_start/char_end count in the page's text, where the chunk list places the chunk.
  const chunk = (await allChunks(server, kbId, citation.document_id)).find((c) => c.id === citation.chunk_id);
  t.is(citation.paragraph.slice(citation.char_start - chunk.char_start, citation.char_end - chunk.char_start), citation.quote.text);
  t.true(citation.quote.text.includes('herring'), citation.quote.text);
  t.true(citation.boxes.length >= 1);
  const { x, y } = middle();
  t.true(covers(citation.boxes, x, y), `herring at ${x},${y} pt; boxes ${JSON.stringify(citation.boxes)}`);
  t.false(covers(citation.boxes, x, AT.far + 6), 'the far paragraph is not part of the cited span');
});

test('search hits and the chunk list carry the chunk’s line boxes', async (t) => {
  const { body } = await server.call('POST', `/v1/knowledge-bases/${kbId}/search`, { json: { query: 'herring boats lighthouse keeper' } });
  const hit = body.data[0];
  t.is(hit.page, 2);
  t.true(covers(hit.boxes, middle().x, middle().y), JSON.stringify(hit.boxes));
  const chunks = await allChunks(server, kbId, pdfId);
  t.true(chunks.every((c) => c.boxes.length > 0 && c.boxes.every((b: Box) => b.x0 < b.x1 && b.y0 < b.y1 && b.x1 <= 1 && b.y1 <= 1)));
});

async function pixels(png: Buffer) {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const data = context.getImageData(0, 0, image.width, image.height).data;
  /** The share of pixels in a rectangle (fractions of the image) tinted yellow: red well above blue. */
  const tinted = (x0: number, y0: number, x1: number, y1: number) => {
    let yellow = 0;
    let all = 0;
    for (let y = Math.round(y0 * image.height); y < Math.round(y1 * image.height); y++) {
      for (let x = Math.round(x0 * image.width); x < Math.round(x1 * image.width); x++) {
        const i = (y * image.width + x) * 4;
        all++;
        if (data[i]! - data[i + 2]! > 60) yellow++;
      }
    }
    return yellow / all;
  };
  /** The same for a rectangle in points of the letter page. */
  const tintedPoints = (x0: number, y0: number, x1: number, y1: number) => tinted(x0 / PAGE.width, y0 / PAGE.height, x1 / PAGE.width, y1 / PAGE.height);
  return { width: image.width, height: image.height, tinted, tintedPoints };
}

const image = async (path: string) => {
  const response = await fetch(`${server.url}${path}`, { headers: { authorization: 'Bearer test-admin-key-0123456789abcdef' } });
  return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
};

test('the page image is a PNG of the page’s proportions; highlight tints the cited words and nothing far away', async (t) => {
  const chunk = (await allChunks(server, kbId, pdfId)).find((c) => c.paragraph.includes('herring'));
  const pagePath = `/v1/knowledge-bases/${kbId}/documents/${pdfId}/pages/2/image`;
  const plain = await image(`${pagePath}?width=918`);
  t.is(plain.status, 200);
  t.is(plain.type, 'image/png');
  const before = await pixels(plain.bytes);
  t.deepEqual([before.width, before.height], [918, 1188], 'letter at 1.5 pixels a point');
  const lit = await image(`${pagePath}?width=918&highlight=${chunk.id}`);
  t.is(lit.status, 200);
  writeFileSync('/tmp/kbqa-highlight-test.png', lit.bytes);
  const after = await pixels(lit.bytes);
  t.is(before.tintedPoints(herring.x0, herring.top, herring.x1, herring.bottom), 0, 'no yellow without a highlight');
  t.true(after.tintedPoints(herring.x0, herring.top, herring.x1, herring.bottom) > 0.5, 'the cited word sits under the highlight');
  t.is(after.tintedPoints(AT.x, AT.far, AT.x + 300, AT.far + 12), 0, 'the far paragraph is not highlighted');
  t.is(after.tintedPoints(0, 0, PAGE.width, 250), 0, 'nor the top of the page');
  t.true((await pixels((await image(`/v1/knowledge-bases/${kbId}/documents/${pdfId}/pages/1/image`)).bytes)).width === 1000, 'width defaults to 1000');
});

test('page image errors: no such page, no such chunk, a chunk of another page, a format without pages to draw', async (t) => {
  const base = `/v1/knowledge-bases/${kbId}/documents/${pdfId}/pages`;
  const error = async (path: string) => (await server.call('GET', path)) as { status: number; body: { error: { code: string } } };
  t.like(await error(`${base}/3/image`), { status: 404, body: { error: { code: 'page_not_found' } } });
  t.like(await error(`${base}/0/image`), { status: 400, body: { error: { code: 'invalid_page' } } });
  t.like(await error(`${base}/2/image?highlight=chk_nope`), { status: 404, body: { error: { code: 'chunk_not_found' } } });
  const first = (await allChunks(server, kbId, pdfId)).find((c) => c.page === 1);
  t.like(await error(`${base}/2/image?highlight=${first.id}`), { status: 404, body: { error: { code: 'chunk_not_found' } } });
  t.like(await error(`${base}/2/image?width=10`), { status: 400 });
  const { body: md } = await server.call('POST', `/v1/knowledge-bases/${kbId}/documents`, { json: { name: 'notes.md', text: '# Notes\n\nPlain text has no pages to draw.' } });
  t_ready(await settledDocument(server, kbId, md.data[0].id));
  t.like(await error(`/v1/knowledge-bases/${kbId}/documents/${md.data[0].id}/pages/1/image`), { status: 415, body: { error: { code: 'page_image_unavailable' } } });
});

test('an OCR’d PNG gets line boxes, and its page image is the scan itself', async (t) => {
  const scan = textImage(SCAN_LINES, { width: 1400, height: 600 });
  const upload = await uploadFiles(server, kbId, [{ name: 'note.png', bytes: scan.png, type: 'image/png' }]);
  const id = upload.body.data[0].id;
  t_ready(await settledDocument(server, kbId, id));
  const [chunk] = await allChunks(server, kbId, id);
  t.is(chunk.boxes.length, SCAN_LINES.length, JSON.stringify(chunk.boxes));
  // textImage draws its first line from x = 100 px with its baseline at y = 150 px.
  t.true(Math.abs(chunk.boxes[0].x0 * 1400 - 100) < 15 && chunk.boxes[0].y1 * 600 > 140 && chunk.boxes[0].y0 * 600 < 130, JSON.stringify(chunk.boxes[0]));
  const lit = await image(`/v1/knowledge-bases/${kbId}/documents/${id}/pages/1/image?width=700&highlight=${chunk.id}`);
  t.is(lit.status, 200);
  const out = await pixels(lit.bytes);
  t.deepEqual([out.width, out.height], [700, 300]);
  // Only the second line, by its span in the page's text (as a citation's char_start/char_end give it).
  const [first, second, third] = chunk.boxes as Box[];
  const span = `&char_start=${chunk.char_start + second!.start}&char_end=${chunk.char_start + third!.start - 1}`;
  const one = await pixels((await image(`/v1/knowledge-bases/${kbId}/documents/${id}/pages/1/image?width=700&highlight=${chunk.id}${span}`)).bytes);
  const share = (b: Box) => one.tinted(b.x0, b.y0, b.x1, b.y1);
  t.true(share(second!) > 0.5, `second line ${share(second!)}`);
  t.is(share({ ...first!, y1: Math.min(first!.y1, second!.y0 - 0.02) }), 0, 'the first line is left alone');
  t.is(share({ ...third!, y0: Math.max(third!.y0, second!.y1 + 0.02) }), 0, 'and the third');
});
