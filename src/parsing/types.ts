import type { Block } from '../domain/document/block.ts';
import type { OcrLanguage } from './ocr-languages.ts';

/**
 * The contract between the parsers and the rest of the pipeline. A parser turns one file into
 * blocks, each on one page, in reading order; the chunker slices blocks into chunks and never
 * across a page. Parsers run in worker threads and are pure functions of the file's bytes.
 */

export const MEDIA_TYPES = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  tiff: 'image/tiff',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv',
  markdown: 'text/markdown',
  text: 'text/plain',
  html: 'text/html',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  epub: 'application/epub+zip',
  eml: 'message/rfc822',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
} as const;

export type MediaType = (typeof MEDIA_TYPES)[keyof typeof MEDIA_TYPES];

export type { Block, BlockKind } from '../domain/document/block.ts';

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

/** A file carried inside another, by its (sanitised) name; its type is detected from its bytes like any upload's. */
export type Attachment = { name: string; bytes: Uint8Array };

export type ParseLimits = {
  /** Sum of the uncompressed sizes an archive (DOCX/XLSX) may declare, checked before inflating anything. */
  maxUncompressedBytes: number;
  maxPages: number;
  /** OCR pages without a usable text layer, and images. */
  ocr: boolean;
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

export type FailureCode =
  | 'encrypted'
  | 'corrupt'
  | 'too_large'
  | 'unsupported_type'
  | 'empty'
  | 'timeout'
  | 'unsafe_content'
  | 'resource_limit';

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
