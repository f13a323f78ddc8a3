import type { Readable } from 'node:stream';
import type { Context } from 'koa';
import busboy from 'busboy';
import { badRequest, tooLarge, unsupportedMediaType } from '../app/errors.ts';
import { type BlobStore, BlobTooLargeError } from '../ports/blob-store.ts';
import { type BodyPace, isBodyTimeout, paceDeadline } from './body.ts';

export type ReceivedFile = { name: string; sha256: string; sizeBytes: number };
export type Received = { files: ReceivedFile[]; fields: Record<string, string> };

export type MultipartLimits = { maxFileBytes: number; maxFiles: number };

const FILE_FIELDS = new Set(['file', 'files', 'file[]', 'files[]']);
const MAX_FIELD_BYTES = 64 * 1024;

/**
 * Streams every `file` part straight into the blob store (never whole in memory, never in a temp
 * file) and collects the text fields, with busboy rather than koa-body's formidable: formidable
 * writes each file to a temp file first and ignores RFC 5987 `filename*` (how the SDKs send
 * non-ASCII names). A file over the limit stops the upload: the rest of the body is read and
 * discarded so the client sees the 413 instead of a reset connection. A body slower than `pace`
 * stops it with a 408 (body.ts), and nothing of it is kept.
 */
export async function receiveMultipart(ctx: Context, blobs: BlobStore, limits: MultipartLimits, pace: BodyPace): Promise<Received> {
  if (!ctx.is('multipart/form-data')) throw unsupportedMediaType('Upload files as multipart/form-data, or send JSON {name, text}.');
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limits.maxFiles * limits.maxFileBytes + MAX_FIELD_BYTES * 4) throw tooLarge(`The upload exceeds ${limits.maxFiles} files of ${limits.maxFileBytes} bytes.`);

  const fields: Record<string, string> = {};
  const stored: Promise<ReceivedFile>[] = [];
  let parser: busboy.Busboy;
  try {
    // Clients send raw UTF-8 file names (curl, browsers, FormData); busboy would read them as Latin-1.
    parser = busboy({ headers: ctx.req.headers, defParamCharset: 'utf8', limits: { files: limits.maxFiles, fields: 20, fieldSize: MAX_FIELD_BYTES, parts: limits.maxFiles + 20 } });
  } catch {
    throw badRequest('invalid_multipart', 'The multipart body is malformed (missing boundary?).', 'file');
  }
  const body = ctx.req;
  const deadline = paceDeadline(ctx, pace);
  const done = new Promise<void>((resolve, reject) => {
    deadline.expired.catch(reject);
    parser.on('file', (field, stream, info) => {
      if (!FILE_FIELDS.has(field)) {
        stream.resume();
        return reject(badRequest('unknown_field', `${field}: unknown field; send files as 'file'`, field));
      }
      const name = (info.filename || 'upload').slice(0, 255);
      const put = blobs.put(stream, { maxBytes: limits.maxFileBytes }).then((blob) => ({ name, sha256: blob.sha256, sizeBytes: blob.sizeBytes }));
      put.catch(reject);
      stored.push(put);
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) reject(badRequest('invalid_value', `${name}: longer than ${MAX_FIELD_BYTES} bytes`, name));
      fields[name] = value;
    });
    parser.on('filesLimit', () => reject(badRequest('too_many_files', `At most ${limits.maxFiles} files per upload.`, 'file')));
    parser.on('error', (error) => reject(badRequest('invalid_multipart', `The multipart body is malformed: ${(error as Error).message}`, 'file')));
    parser.on('close', resolve);
  });
  body.pipe(parser);
  try {
    await done;
    return { files: await Promise.all(stored), fields };
  } catch (error) {
    body.unpipe(parser);
    // A body that arrives too slowly is not waited for: the 408 closes the connection. Nor is one drained slower than the pace.
    if (!isBodyTimeout(error)) await Promise.race([drain(body), deadline.expired.catch(() => {})]);
    // The part of a file that arrived ends short: its blob write fails, nothing is stored.
    parser.destroy();
    await Promise.allSettled(stored);
    if (error instanceof BlobTooLargeError) throw tooLarge(`A file exceeds the upload limit of ${limits.maxFileBytes} bytes.`);
    throw error;
  } finally {
    deadline.stop();
  }
}

/** Reads and drops what is left of the request body (for at most 10 s), then lets the response go out. */
function drain(body: Readable): Promise<void> {
  return new Promise((resolve) => {
    if (body.readableEnded || body.destroyed) return resolve();
    const timer = setTimeout(resolve, 10_000);
    body.on('end', () => (clearTimeout(timer), resolve()));
    body.on('error', () => (clearTimeout(timer), resolve()));
    body.on('close', () => (clearTimeout(timer), resolve()));
    body.resume();
  });
}
