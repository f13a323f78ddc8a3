import type { Box } from '../domain/document/box.ts';

/** A page of a stored file to draw, with the lines to highlight (fractions of the page, see Box). */
export type PageImageRequest = {
  /** The file on local disk (the blob store's copy). */
  path: string;
  mediaType: string;
  /** 1-based. */
  page: number;
  /** Width of the image in pixels; the height keeps the page's proportions. */
  width: number;
  highlight: readonly Omit<Box, 'start'>[];
};

export type PageImageOutcome =
  | { ok: true; png: Uint8Array; width: number; height: number }
  /** unavailable: the format has pages but nothing here draws them (slides); page_out_of_range: no such page in the file. */
  | { ok: false; code: 'page_image_unavailable' | 'page_out_of_range' | 'render_failed'; message: string };

/** Draws document pages as PNG, away from the event loop and within a time budget. */
export interface PageRenderer {
  render(request: PageImageRequest, options: { timeoutMs: number }): Promise<PageImageOutcome>;
  close(): Promise<void>;
}
