import type { GrayImage } from './gray-image.ts';

/**
 * A page photographed or scanned askew, straightened before tesseract reads it: the command-line
 * tesseract has no such step (a 3-column page turned 2.5° lost a third of its 5-gram recall
 * without it), and tesseract.js's own (`rotateAuto`) gives words placed on its turned copy, not
 * on the image, where a region read again (ocr-region.ts) must find them. The angle is the one at which the rows of ink line up
 * best (projection profile: the sum of squared row counts of dark pixels peaks when text lines
 * are horizontal), measured on a sample of the page's dark pixels.
 */

const MAX_DEGREES = 6;
const COARSE_STEP = 0.25;
const FINE_STEP = 0.05;
/** Under 0.29° (tesseract.js's own threshold for turning, 0.005 rad), lines read as straight. */
const MIN_DEGREES = 0.29;
/** Dark pixels sampled on a grid about this wide: enough for an angle to a tenth of a degree. */
const SAMPLE_WIDTH = 800;

type Ink = { xs: Float64Array; ys: Float64Array; height: number };

function sampleInk(image: GrayImage): Ink {
  const step = Math.max(1, Math.floor(image.width / SAMPLE_WIDTH));
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < image.height; y += step) {
    for (let x = 0; x < image.width; x += step) {
      if (image.data[y * image.width + x]! < 128) {
        xs.push(x / step);
        ys.push(y / step);
      }
    }
  }
  return { xs: Float64Array.from(xs), ys: Float64Array.from(ys), height: Math.ceil(image.height / step) };
}

function alignment(ink: Ink, degrees: number): number {
  const slope = Math.tan((degrees * Math.PI) / 180);
  const margin = Math.ceil(Math.abs(slope) * SAMPLE_WIDTH * 2) + 1;
  const rows = new Float64Array(ink.height + 2 * margin + 1);
  for (let i = 0; i < ink.xs.length; i++) rows[Math.round(ink.ys[i]! - ink.xs[i]! * slope) + margin]! += 1;
  let score = 0;
  for (const count of rows) score += count * count;
  return score;
}

function best(ink: Ink, from: number, to: number, step: number): number {
  let angle = 0;
  let top = -1;
  for (let degrees = from; degrees <= to + 1e-9; degrees += step) {
    const score = alignment(ink, degrees);
    if (score > top) [top, angle] = [score, degrees];
  }
  return angle;
}

/** The angle (degrees, positive when lines fall to the right) the page's text lines stand at. */
export function skewDegrees(image: GrayImage): number {
  const ink = sampleInk(image);
  if (ink.xs.length < 100) return 0;
  const coarse = best(ink, -MAX_DEGREES, MAX_DEGREES, COARSE_STEP);
  return best(ink, coarse - COARSE_STEP, coarse + COARSE_STEP, FINE_STEP);
}

/** Turns the image by `degrees` about its centre (bilinear), same size, white where nothing was. */
export function rotateGray(image: GrayImage, degrees: number): GrayImage {
  const { width, height, data } = image;
  const out = new Uint8Array(width * height);
  const cos = Math.cos((degrees * Math.PI) / 180);
  const sin = Math.sin((degrees * Math.PI) / 180);
  const cx = width / 2;
  const cy = height / 2;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sx = cx + (x - cx) * cos - (y - cy) * sin;
      const sy = cy + (x - cx) * sin + (y - cy) * cos;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= width || y0 + 1 >= height) {
        out[y * width + x] = 255;
        continue;
      }
      const fx = sx - x0;
      const fy = sy - y0;
      const i = y0 * width + x0;
      const top = data[i]! * (1 - fx) + data[i + 1]! * fx;
      const bottom = data[i + width]! * (1 - fx) + data[i + width + 1]! * fx;
      out[y * width + x] = top * (1 - fy) + bottom * fy;
    }
  }
  return { width, height, data: out };
}

/** The page with its lines horizontal; the page itself when they already are. */
export function straightened(image: GrayImage): GrayImage {
  const degrees = skewDegrees(image);
  return Math.abs(degrees) < MIN_DEGREES ? image : rotateGray(image, degrees);
}
