import type { Chunk, ChunkingSettings } from '../domain/document/chunker.ts';
import type { MediaType } from '../domain/document/media-type.ts';
import type { OcrModel } from '../../schemas/ocr-languages.ts';

/** A file carried inside another, by its (sanitised) name; its type is detected from its bytes like any upload's. */
export type Attachment = { name: string; bytes: Uint8Array };

export type ParseLimits = {
  /** Sum of the uncompressed sizes an archive (DOCX/XLSX) may declare, checked before inflating anything. */
  maxUncompressedBytes: number;
  maxPages: number;
  /** OCR pages without a usable text layer, and images. */
  ocr: boolean;
};

/** Why a file cannot become a document. */
export type FailureCode =
  | 'encrypted'
  | 'corrupt'
  | 'too_large'
  | 'unsupported_type'
  | 'empty'
  | 'timeout'
  | 'unsafe_content'
  | 'resource_limit';

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
