import type { MessagePort } from 'node:worker_threads';
import type { ParseTask } from '../ports/document-parser.ts';
import { parseFile } from './parse-file.ts';

/** What runs inside a worker: the task plus a port on which page progress flows back. */
export async function runParseTask({ task, progress }: { task: ParseTask; progress?: MessagePort }) {
  try {
    return await parseFile(task, (done, total) => progress?.postMessage({ done, total }));
  } finally {
    progress?.close();
  }
}
