import type { Block } from '../domain/document/block.ts';
import type { MediaType } from '../domain/document/media-type.ts';
import type { Attachment, FailureCode, ParseLimits } from '../ports/document-parser.ts';
import type { OcrLanguage } from './ocr/ocr-languages.ts';

/**
 * The contract between the parsers and the rest of the pipeline. A parser turns one file into
 * blocks, each on one page, in reading order; the chunker slices blocks into chunks and never
 * across a page. Parsers run in worker threads and are pure functions of the file's bytes.
 */

// The vocabulary the parsers share with the rest of the service, gathered here for them.
export type { Block, BlockKind } from '../domain/document/block.ts';
export { MEDIA_TYPES, type MediaType } from '../domain/document/media-type.ts';
export type { Attachment, FailureCode, ParseLimits } from '../ports/document-parser.ts';

export type ParsedDocument = {
  mediaType: MediaType;
  pageCount: number;
  blocks: Block[];
  /** Pages whose text came from OCR. */
  ocrPages: number[];
  /**
   * The page numbers are an estimate: the file does not say where its pages break (a Word file
   * never laid out by Word), so they come from the amount of text. Absent when they are known.
   */
  pageEstimated?: boolean;
  /** What a reader may want to know (a sheet skipped as hidden, a page that OCR could not read …). */
  warnings: string[];
  /** Files inside this one that become documents of their own (an email's attachments). */
  attachments?: Attachment[];
};

export type ParseInput = {
  /** Path of the file on local disk (the blob store's file or a temporary copy). */
  path: string;
  fileName: string;
  mediaType: MediaType;
  limits: ParseLimits;
  /** Languages to OCR scans in; undefined: each page's are detected. */
  ocrLanguages?: readonly OcrLanguage[];
  onProgress?: (pagesDone: number, pageCount: number) => void;
};

export type Parser = (input: ParseInput) => Promise<ParsedDocument>;

/** The one error a parser throws on purpose: the document fails with this code, the process goes on. */
export class ParseFailure extends Error {
  override readonly name = 'ParseFailure';
  constructor(
    readonly code: FailureCode,
    message: string,
  ) {
    super(message);
  }
}

export const DEFAULT_LIMITS: ParseLimits = { maxUncompressedBytes: 200 * 1024 * 1024, maxPages: 5000, ocr: true };
