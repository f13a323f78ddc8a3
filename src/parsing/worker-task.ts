import type { ParseTask } from '../ports/document-parser.ts';
import type { PageImageOutcome, PageImageRequest } from '../ports/page-renderer.ts';
import { renderPageImage } from './page-image.ts';
import { parserFor } from './dispatch.ts';
import { ocrStarted } from './ocr/ocr.ts';
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

/**
 * How much a parse may grow its process before the process had better end than idle for a
 * minute: the 400-page manual adds 40-55 MB (about 100 MB before, 136-157 after), which would
 * stay resident beside the server while it indexes the chunks; a small document adds 0-16 MB.
 */
export const RETIRE_GROWTH_MB = 32;
/** A process this big ends after its task whatever the task added (a run of large documents). */
export const RETIRE_ABOVE_MB = 192;

const residentMb = () => process.memoryUsage.rss() / 2 ** 20;

/**
 * Runs a task, then says whether this process should end now rather than idle. One whose OCR
 * engine has started stays: starting tesseract.js again costs about a second a thread, and
 * the engine keeps that memory busy anyway.
 */
export async function withRetireCheck<T>(task: () => Promise<T>, retire: () => void, sizeMb = residentMb, ocr = ocrStarted): Promise<T> {
  const before = sizeMb();
  try {
    return await task();
  } finally {
    const after = sizeMb();
    if ((after - before > RETIRE_GROWTH_MB || after > RETIRE_ABOVE_MB) && !ocr()) retire();
  }
}
