import type { ParseTask } from '../ports/document-parser.ts';
import type { PageImageOutcome, PageImageRequest } from '../ports/page-renderer.ts';
import { renderPageImage } from './page-image.ts';
import { parserFor } from './dispatch.ts';
import { parseFile } from './parse-file.ts';
import { MEDIA_TYPES } from './types.ts';

export type WorkerMessage = { task: ParseTask } | { warm: true } | { render: PageImageRequest };

/**
 * What runs inside a parser process: a parse, reporting page progress as it goes; a page to draw;
 * or a warm-up that loads the PDF and Office parsers, so the first real document does not pay for it.
 */
export async function runParseTask(message: WorkerMessage, onProgress: (done: number, total: number) => void = () => {}) {
  if ('render' in message) return await renderTask(message.render);
  if ('warm' in message) {
    await Promise.all([MEDIA_TYPES.pdf, MEDIA_TYPES.docx, MEDIA_TYPES.xlsx].map((type) => parserFor(type)));
    return null;
  }
  return await parseFile(message.task, onProgress);
}

/** A file that cannot be opened (damaged, encrypted) is an outcome for the client, not a crash. */
async function renderTask(request: PageImageRequest): Promise<PageImageOutcome> {
  try {
    return await renderPageImage(request);
  } catch (error) {
    return { ok: false, code: 'render_failed', message: `The page could not be drawn: ${(error as Error).message}` };
  }
}
