import { OPS, Util, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * How much of a page is covered by images, from its operator list: a scanned page is one image
 * over (nearly) all of it. Only asked for pages with little text, because building the operator
 * list decodes the page's images.
 */

const IMAGE_OPS = new Set<number>([
  OPS.paintImageXObject,
  OPS.paintInlineImageXObject,
  OPS.paintImageMaskXObject,
  OPS.paintImageXObjectRepeat,
]);

export async function imageCoverage(page: PDFPageProxy): Promise<number> {
  const { fnArray, argsArray } = await page.getOperatorList();
  const [x0, y0, x1, y1] = page.view as [number, number, number, number];
  const pageArea = Math.abs((x1 - x0) * (y1 - y0)) || 1;
  const stack: number[][] = [];
  let ctm = [1, 0, 0, 1, 0, 0];
  let largest = 0;
  for (let i = 0; i < fnArray.length; i++) {
    const op = fnArray[i]!;
    const args = argsArray[i] as unknown[] | null;
    if (op === OPS.save || op === OPS.paintFormXObjectBegin) {
      stack.push(ctm);
      const matrix = op === OPS.paintFormXObjectBegin ? (args?.[0] as number[] | null) : null;
      if (matrix) ctm = Util.transform(ctm, matrix) as number[];
    } else if (op === OPS.restore || op === OPS.paintFormXObjectEnd) {
      ctm = stack.pop() ?? ctm;
    } else if (op === OPS.transform && args) {
      ctm = Util.transform(ctm, args as number[]) as number[];
    } else if (IMAGE_OPS.has(op)) {
      // An image fills the unit square of the current transform: its area is |det|.
      largest = Math.max(largest, Math.abs(ctm[0]! * ctm[3]! - ctm[1]! * ctm[2]!));
    }
  }
  return Math.min(1, largest / pageArea);
}
