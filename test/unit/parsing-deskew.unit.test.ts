import test from 'ava';
import { rotateGray, skewDegrees, straightened } from '../../src/parsing/ocr/deskew.ts';
import { samplePage } from '../helpers/ocr-pages.ts';

/** The straightening the system tesseract's pages get (tesseract.js does its own). */

const lines = ['Lines of a page photographed askew must be read as lines,', 'not as words stepping from one line to the next.', 'A third line, to give the profile its rows of ink.'];

for (const degrees of [-4, -2.5, 1, 3]) {
  test(`deskew: a page turned ${degrees}° is measured within 0.2° and turned back`, (t) => {
    const page = samplePage(lines).image;
    const turned = rotateGray(page, degrees);
    const measured = skewDegrees(turned);
    t.true(Math.abs(measured + degrees) <= 0.2, `measured ${measured}°`);
    t.true(Math.abs(skewDegrees(straightened(turned))) <= 0.2);
  });
}

test('deskew: a straight page, or a blank one, is left as it is', (t) => {
  const page = samplePage(lines).image;
  t.is(straightened(page), page);
  const blank = { width: 200, height: 100, data: new Uint8Array(200 * 100).fill(255) };
  t.is(skewDegrees(blank), 0);
  t.is(straightened(blank), blank);
});
