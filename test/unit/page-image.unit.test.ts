import test from 'ava';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { renderPageImage } from '../../src/parsing/page-image.ts';
import { MEDIA_TYPES } from '../../src/parsing/types.ts';
import { tempDir } from '../helpers/temp.ts';
import { textImage, tiff, writeFixture } from './parsing-pdf-fixtures.ts';

const dir = tempDir('kbqa-page-image-');
test.after.always(() => dir.remove());

async function rgbaOf(png: Uint8Array) {
  const image = await loadImage(Buffer.from(png));
  const context = createCanvas(image.width, image.height).getContext('2d');
  context.drawImage(image, 0, 0);
  const { data } = context.getImageData(0, 0, image.width, image.height);
  return { width: image.width, height: image.height, at: (x: number, y: number) => [...data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 3)] };
}

test('a TIFF page is drawn from its own frame, scaled to the width asked for; a page past the last is out of range', async (t) => {
  const first = textImage(['First'], { width: 400, height: 200 });
  const second = { width: 400, height: 200, gray: new Uint8Array(400 * 200).fill(0), bits: 8 as const };
  const path = writeFixture(dir.path, 'two.tif', tiff([{ ...first, bits: 8 }, second]));
  const request = { path, mediaType: MEDIA_TYPES.tiff, width: 200, highlight: [] };
  const out = await renderPageImage({ ...request, page: 2 });
  if (!out.ok) return t.fail(out.message);
  const image = await rgbaOf(out.png);
  t.deepEqual([image.width, image.height], [200, 100]);
  t.deepEqual(image.at(100, 50), [0, 0, 0], 'the second frame is all black');
  t.like(await renderPageImage({ ...request, page: 3 }), { ok: false, code: 'page_out_of_range' });
});

test('a highlight tints its box on a scan and leaves the rest of the page as it was', async (t) => {
  const blank = textImage([], { width: 400, height: 400 });
  const path = writeFixture(dir.path, 'white.png', blank.png);
  const out = await renderPageImage({ path, mediaType: MEDIA_TYPES.png, page: 1, width: 400, highlight: [{ x0: 0.25, y0: 0.25, x1: 0.5, y1: 0.3 }] });
  if (!out.ok) return t.fail(out.message);
  const image = await rgbaOf(out.png);
  const [r, g, b] = image.at(150, 110);
  t.true(r! > 240 && b! < 200 && g! > b!, `yellow inside: ${[r, g, b]}`);
  t.deepEqual(image.at(150, 300), [255, 255, 255], 'white outside');
});

test('slides and other formats without a renderer here are refused, not faked', async (t) => {
  const out = await renderPageImage({ path: '/nonexistent.pptx', mediaType: MEDIA_TYPES.pptx, page: 1, width: 400, highlight: [] });
  t.like(out, { ok: false, code: 'page_image_unavailable' });
});
