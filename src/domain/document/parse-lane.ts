import { MEDIA_TYPES } from './media-type.ts';

/**
 * Which queue an upload waits in before it is parsed. Parses run in batches, and a batch ends only
 * when its slowest parse does: one queue put six small notes `queued` for 25 s behind a 21-page OCR
 * job (issue 33). Small files that cannot need OCR wait in a lane of their own, with a parser
 * process of their own, so no long job is ever in front of them.
 */
export type ParseLane = 'small' | 'large';

/** Up to this size a file without scans parses in well under a second (1 MB of Markdown: 70-80 ms in a warm parser process, 0.5 s with the process's start). */
export const SMALL_FILE_MAX_BYTES = 1024 * 1024;

/** How many small files parse at once: one, beside the large lane's KBQA_PARSER_THREADS; each takes milliseconds. */
export const SMALL_LANE_PARSES = 1;

/** Only PDFs and images can hold scans, whose OCR takes about a second a page: never small, whatever their size. */
const MAY_NEED_OCR: ReadonlySet<string> = new Set([MEDIA_TYPES.pdf, MEDIA_TYPES.png, MEDIA_TYPES.jpeg, MEDIA_TYPES.tiff]);

/** Decided from the upload alone (its detected type and size), so every worker puts a document in the same lane. */
export function parseLane(upload: { media_type: string; size_bytes: number }): ParseLane {
  return !MAY_NEED_OCR.has(upload.media_type) && upload.size_bytes <= SMALL_FILE_MAX_BYTES ? 'small' : 'large';
}
