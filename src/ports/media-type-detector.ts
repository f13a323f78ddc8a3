import type { MediaType } from '../domain/document/media-type.ts';
import type { FailureCode } from './document-parser.ts';

export type Detection = { ok: true; mediaType: MediaType } | { ok: false; code: FailureCode; message: string };

/**
 * Decides a file's type from its bytes (its name only tells kinds of text apart), cheaply enough
 * for an upload to be refused before anything is queued. The parsers' reading of the bytes
 * (src/parsing/detect.ts) is what the composition root hands in.
 */
export type MediaTypeDetector = (path: string, fileName: string) => Promise<Detection>;
