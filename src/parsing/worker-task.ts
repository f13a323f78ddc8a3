import type { MessagePort } from 'node:worker_threads';
import type { ParseTask } from '../ports/document-parser.ts';
import { parserFor } from './dispatch.ts';
import { parseFile } from './parse-file.ts';
import { MEDIA_TYPES } from './types.ts';

export type WorkerMessage = { task: ParseTask; progress?: MessagePort } | { warm: true };

/**
 * What runs inside a worker: a parse, with a port on which page progress flows back; or a
 * warm-up that loads the PDF and Office parsers, so the first real document does not pay for it.
 */
export async function runParseTask(message: WorkerMessage) {
  if ('warm' in message) {
    await Promise.all([MEDIA_TYPES.pdf, MEDIA_TYPES.docx, MEDIA_TYPES.xlsx].map((type) => parserFor(type)));
    return null;
  }
  const { task, progress } = message;
  try {
    return await parseFile(task, (done, total) => progress?.postMessage({ done, total }));
  } finally {
    progress?.close();
  }
}
