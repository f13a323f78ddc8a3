import { chunkBlocks } from '../domain/document/chunker.ts';
import type { ParseOutcome, ParseTask } from '../ports/document-parser.ts';
import { detectMediaType } from './detect.ts';
import { parserFor } from './dispatch.ts';
import { ParseFailure } from './types.ts';

/** Detect by bytes, parse, slice: everything a document needs between its file and its chunks. */
export async function parseFile(task: ParseTask, onProgress?: (done: number, total: number) => void): Promise<ParseOutcome> {
  try {
    const detected = await detectMediaType(task.path, task.fileName);
    if (!detected.ok) return { ok: false, code: detected.code, message: detected.message };
    const parse = await parserFor(detected.mediaType);
    const parsed = await parse({
      path: task.path,
      fileName: task.fileName,
      mediaType: detected.mediaType,
      limits: task.limits,
      ocrLanguages: task.ocrLanguages,
      onProgress,
    });
    const chunks = chunkBlocks(task.documentId, parsed.blocks, task.chunking);
    if (chunks.length === 0) return { ok: false, code: 'empty', message: 'The document contains no text.' };
    const { mediaType, pageCount, pageEstimated, ocrPages, warnings, attachments } = parsed;
    return { ok: true, mediaType, pageCount, ...(pageEstimated ? { pageEstimated } : {}), chunks, ocrPages, warnings, ...(attachments ? { attachments } : {}) };
  } catch (error) {
    if (error instanceof ParseFailure) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}
