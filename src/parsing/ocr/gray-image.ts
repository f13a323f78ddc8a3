/**
 * An 8-bit grayscale raster: what OCR gets, whatever the source (a rendered PDF page, a PNG, a
 * 1-bit TIFF frame). Gray keeps a quarter of RGBA's memory and loses nothing OCR uses.
 */

export type GrayImage = { width: number; height: number; data: Uint8Array };

/** RGBA to luma (Rec. 601 weights), with transparent pixels composited over white. */
export function grayFromRgba(rgba: ArrayLike<number>, width: number, height: number): GrayImage {
  const data = new Uint8Array(width * height);
  for (let i = 0, j = 0; i < data.length; i++, j += 4) {
    const alpha = rgba[j + 3]!;
    const luma = (rgba[j]! * 77 + rgba[j + 1]! * 150 + rgba[j + 2]! * 29) >> 8;
    data[i] = alpha === 255 ? luma : (luma * alpha + 255 * (255 - alpha)) / 255;
  }
  return { width, height, data };
}

/** Bilinear resampling by a factor; used to bring small scans up to a size OCR reads well. */
export function scaleGray(image: GrayImage, factor: number): GrayImage {
  const width = Math.max(1, Math.round(image.width * factor));
  const height = Math.max(1, Math.round(image.height * factor));
  const src = image.data;
  const data = new Uint8Array(width * height);
  const maxX = image.width - 1;
  const maxY = image.height - 1;
  for (let y = 0; y < height; y++) {
    const sy = Math.min(maxY, Math.max(0, (y + 0.5) / factor - 0.5));
    const y0 = Math.floor(sy);
    const y1 = Math.min(maxY, y0 + 1);
    const fy = sy - y0;
    for (let x = 0; x < width; x++) {
      const sx = Math.min(maxX, Math.max(0, (x + 0.5) / factor - 0.5));
      const x0 = Math.floor(sx);
      const x1 = Math.min(maxX, x0 + 1);
      const fx = sx - x0;
      const top = src[y0 * image.width + x0]! * (1 - fx) + src[y0 * image.width + x1]! * fx;
      const bottom = src[y1 * image.width + x0]! * (1 - fx) + src[y1 * image.width + x1]! * fx;
      data[y * width + x] = top * (1 - fy) + bottom * fy;
    }
  }
  return { width, height, data };
}

/**
 * Binary PGM: Leptonica (inside tesseract) reads it without any codec, and writing it is a
 * header and a copy, unlike PNG's compression.
 */
export function toPgm(image: GrayImage): Buffer {
  const header = Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, 'latin1');
  return Buffer.concat([header, image.data]);
}

/** A histogram of a grid of samples: enough to judge the paper and the ink, at a fraction of the cost. */
function sampleHistogram(image: GrayImage): { histogram: Uint32Array; samples: number; paper: number } {
  const step = Math.max(1, Math.floor(Math.sqrt((image.width * image.height) / 250_000)));
  const histogram = new Uint32Array(256);
  let samples = 0;
  for (let y = 0; y < image.height; y += step) {
    for (let x = 0; x < image.width; x += step) {
      histogram[image.data[y * image.width + x]!]!++;
      samples++;
    }
  }
  let paper = 0;
  for (let v = 1; v < 256; v++) if (histogram[v]! > histogram[paper]!) paper = v;
  return { histogram, samples, paper };
}

/** A page with (almost) no ink: nothing for OCR to read. Ink differs clearly from the paper's tone. */
export function isBlank(image: GrayImage): boolean {
  const { histogram, samples, paper } = sampleHistogram(image);
  let ink = 0;
  for (let v = 0; v < 256; v++) if (Math.abs(v - paper) > 64) ink += histogram[v]!;
  return samples === 0 || ink / samples < 0.0003;
}

/**
 * Light text on dark paper, inverted to dark on light. Tesseract could try inverting each line
 * itself, but that second pass costs time on every page; one global check is cheaper.
 */
export function darkOnLight(image: GrayImage): GrayImage {
  if (sampleHistogram(image).paper >= 128) return image;
  const data = new Uint8Array(image.data.length);
  for (let i = 0; i < data.length; i++) data[i] = 255 - image.data[i]!;
  return { ...image, data };
}

/** Factor that brings a raster within maxPixels (1 when it already is). */
export const fitFactor = (width: number, height: number, maxPixels: number) => Math.min(1, Math.sqrt(maxPixels / (width * height)));

/**
 * Sizes an image for OCR. Below about 1200 px on the long side a page is a low-resolution scan
 * (a 791×1024 JPEG of a letter page is under 100 dpi) and tesseract misreads small type; doubling
 * it turned confidence 65 into 91 on the shared example. Huge images are brought down to a bound.
 */
export function sizeForOcr(image: GrayImage, maxPixels = 10_000_000): GrayImage {
  const long = Math.max(image.width, image.height);
  if (long < 1200) return scaleGray(image, Math.min(2, 1600 / long));
  const fit = fitFactor(image.width, image.height, maxPixels);
  return fit < 1 ? scaleGray(image, fit) : image;
}
