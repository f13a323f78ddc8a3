import type { Chunk, ChunkingSettings } from '../domain/document/chunker.ts';
import type { Attachment, FailureCode, MediaType, ParseLimits } from '../parsing/types.ts';
import type { OcrModel } from '../../schemas/ocr-languages.ts';

export type ParseTask = {
  documentId: string;
  path: string;
  fileName: string;
  chunking: ChunkingSettings;
  limits: ParseLimits;
  /** The upload's or knowledge base's `ocr.languages`, as model codes; undefined: detected per page. */
  ocrLanguages?: OcrModel[];
};

export type ParseOutcome =
  | {
      ok: true;
      mediaType: MediaType;
      pageCount: number;
      pageEstimated?: boolean;
      chunks: Chunk[];
      ocrPages: number[];
      warnings: string[];
      /** Files found inside (an email's attachments), for the caller to add as documents of their own. */
      attachments?: Attachment[];
    }
  | { ok: false; code: FailureCode; message: string };

/**
 * Turns a stored file into chunks, away from the event loop, within a time and memory budget.
 * A broken or hostile file is an outcome (`ok: false`), never a crash of the caller.
 */
export interface DocumentParser {
  parse(task: ParseTask, options: { timeoutMs: number; onProgress?: (pagesDone: number, pageCount: number) => void }): Promise<ParseOutcome>;
  /** Rejects while the parser cannot take work at full speed yet (warming up). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
