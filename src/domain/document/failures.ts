import { SUPPORTED_FORMATS } from './supported-formats.ts';

/**
 * Why a document failed: every code the documents API reports (`error.code`), with the one English
 * sentence it is reported in (`error.message`). Each says what happened and what to do, in plain
 * words; what is particular to the file (its page count, the library's complaint) goes in
 * `error.detail`. Clients match on the code and translate it (the console does, in en and zh-CN:
 * web/console/src/i18n/server-codes.ts, kept complete by a unit test); the sentence may be reworded.
 */
export const DOCUMENT_FAILURES = {
  encrypted: 'The file is password-protected; remove the password and upload it again.',
  corrupt: 'The file is damaged and cannot be read; upload an intact copy.',
  too_large: 'The file is too large to read (too many pages, sheets or cells, or too much data once unpacked); split it and upload the parts.',
  unsupported_type: `This type of file is not supported; convert it to one of ${SUPPORTED_FORMATS} and upload it again.`,
  empty: 'The document holds no text to index; upload a file with text in it, or turn OCR on for scans.',
  timeout: 'Reading the document took too long; split it into smaller files and upload them again.',
  unsafe_content: 'The file declares XML entities, which documents never need and attacks use, so it was refused; save it again from its application and upload it.',
  resource_limit: 'Reading the document needed more memory than the parser may use; split it or shrink its images and upload it again.',
  blob_missing: 'The uploaded file is no longer stored; upload it again.',
  unreadable_event: 'A record of this document could not be read; upload it again.',
  internal_error: 'The server had an error while processing the document; upload it again, and tell the operator if it fails again.',
  knowledge_base_deleted: 'The knowledge base was deleted while the document was being processed.',
  model_unavailable: 'The embedding model of the knowledge base is not available; choose another in its settings and re-index.',
  model_not_found: 'The embedding provider does not serve the embedding model of the knowledge base; choose another in its settings and re-index.',
  provider_unavailable: 'The embedding provider could not be reached; check its address, then re-index the knowledge base.',
  provider_timeout: 'The embedding provider did not answer in time; re-index the knowledge base later.',
  provider_rate_limited: 'The embedding provider is limiting requests; re-index the knowledge base later.',
  provider_auth_failed: 'The embedding provider refused its API key; correct the key in the model provider, then re-index.',
  provider_rejected_request: 'The embedding provider rejected the request; check the embedding model’s settings, then re-index.',
  provider_bad_response: 'The embedding provider sent an answer that could not be used; check the embedding model’s settings, then re-index.',
  document_failed: 'The document could not be processed; upload it again.',
} as const satisfies Record<string, string>;

export type DocumentFailureCode = keyof typeof DOCUMENT_FAILURES;

export const isDocumentFailureCode = (code: string): code is DocumentFailureCode => Object.hasOwn(DOCUMENT_FAILURES, code);

/** A failure as the documents API reports it. */
export type DocumentFailureReport = { code: DocumentFailureCode; message: string; detail?: string };

/**
 * Codes for the messages of failures recorded before a code meant anything to clients, or under a
 * code this catalogue no longer has: the words the parsers used, first match wins.
 */
const CODES_BY_WORDS: readonly [RegExp, DocumentFailureCode][] = [
  [/password|encrypt/i, 'encrypted'],
  [/\b(?:xml bomb|dtd|entit(?:y|ies))\b/i, 'unsafe_content'],
  [/\bzip bomb\b|the limit is|unpack to|too (?:large|big)/i, 'too_large'],
  [/not supported|unsupported|neither a supported/i, 'unsupported_type'],
  [/did not finish in time|took longer than|within \d+ ?ms|timed? ?out/i, 'timeout'],
  [/\bmemory\b|parser process ended/i, 'resource_limit'],
  [/no (?:readable )?text|contains no|is empty|found no text/i, 'empty'],
  [/could not be (?:read|decoded)|damaged|corrupt|invalid pdf/i, 'corrupt'],
];

/** How long a detail may be: enough for a library's complaint, not for a dump. */
const MAX_DETAIL = 300;

/**
 * What a library said, fit to show: local file paths out (they say where the server keeps
 * things), whitespace collapsed, cut to a length. Undefined when nothing is left.
 */
export function scrubDetail(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const scrubbed = text
    .replace(/(?<![\w.:/])(?:\/[\w.@-]+){2,}\/?/g, '…')
    .replace(/\b[A-Za-z]:\\(?:[\w.@-]+\\)*[\w.@-]*/g, '…')
    .replace(/\s+/g, ' ')
    .trim();
  if (!scrubbed) return undefined;
  return scrubbed.length > MAX_DETAIL ? `${scrubbed.slice(0, MAX_DETAIL - 1)}…` : scrubbed;
}

/** A new failure's report: the catalogue's sentence for the code, and what was particular to it. */
export function failureReport(code: DocumentFailureCode, detail?: string): DocumentFailureReport {
  const scrubbed = scrubDetail(detail);
  return { code, message: DOCUMENT_FAILURES[code], ...(scrubbed && scrubbed !== DOCUMENT_FAILURES[code] && { detail: scrubbed }) };
}

/**
 * A recorded failure (a DocumentFailed event's code, message and detail) as the API reports it
 * today: in the catalogue's words whatever it was recorded in. An event from before the catalogue
 * keeps its code when the catalogue has it, else gets the one its message's words point to, else
 * `document_failed`; its old message becomes the detail.
 */
export function reportOfRecorded(recorded: { code: string; message: string; detail?: string | undefined }): DocumentFailureReport {
  const code = isDocumentFailureCode(recorded.code) ? recorded.code : (CODES_BY_WORDS.find(([words]) => words.test(recorded.message))?.[1] ?? 'document_failed');
  const oldWords = recorded.message === DOCUMENT_FAILURES[code] ? undefined : recorded.message;
  return failureReport(code, recorded.detail ?? oldWords);
}
