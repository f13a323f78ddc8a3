import type { Context } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { badRequest, tooLarge, unsupportedMediaType } from '../app/errors.ts';
import { ApiError } from '../ports/api-error.ts';
import { checkJsonShape } from './json-shape.ts';

/**
 * How fast a request body must arrive: once `baseMs` have passed, at least `minBytesPerSecond`
 * on average since the body began. So a body of n bytes has base + n / rate to arrive, whether
 * its length was declared or it comes chunked, and a client that stalls is cut off early.
 */
export type BodyPace = { baseMs: number; minBytesPerSecond: number };

export type JsonReader = (ctx: Context) => Promise<unknown>;

const noop = async () => {};

/** The charsets a JSON body may declare (none means UTF-8, as RFC 8259 requires of JSON between systems). */
export const ACCEPTED_CHARSETS = ['utf-8', 'utf8'];

/**
 * Reads JSON bodies with koa-body (co-body over raw-body), as bytes: at most `limitBytes`, counted
 * while reading so a chunked body cannot lie its way past it (413, and the connection closes: the
 * rest is never read), JSON only (415), UTF-8 only (another declared charset is 415
 * `unsupported_charset`; bytes that are not UTF-8 are 400 `invalid_encoding`, never replaced by
 * U+FFFD as a decoding reader would), a syntax error is 400 `invalid_json` (so is a `__proto__`
 * key), and nesting past MAX_JSON_DEPTH is 400 `nesting_too_deep` (json-shape.ts). gzip, deflate
 * and br bodies are inflated, the limit counting the inflated bytes. koa-body has no deadline
 * (raw-body waits as long as the client takes), so a pace watchdog races it (408). No body is `{}`.
 */
export function jsonReader(limitBytes: number, pace: BodyPace): JsonReader {
  const read = koaBody({
    // As text with no encoding: raw-body then hands over the bytes, which are decoded strictly below.
    json: false,
    text: true,
    textTypes: ['application/json'],
    textLimit: limitBytes,
    encoding: '',
    urlencoded: false,
    multipart: false,
    patchNode: false,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
  });
  return async (ctx) => {
    if (!hasBody(ctx)) return {};
    if (!ctx.is('application/json')) {
      throw unsupportedMediaType(`Content-Type must be application/json, not '${ctx.get('content-type') || 'none'}'.`);
    }
    const charset = ctx.request.charset.toLowerCase();
    if (charset && !ACCEPTED_CHARSETS.includes(charset)) {
      throw new ApiError(415, 'invalid_request_error', 'unsupported_charset', `The body must be UTF-8 (charset=utf-8, or no charset), not charset=${charset}.`);
    }
    const deadline = paceDeadline(ctx, pace);
    const received = read(ctx, noop);
    // Past the deadline the read is abandoned; its later failure (the connection closing) is no one's.
    received.catch(() => {});
    try {
      await Promise.race([received, deadline.expired]);
    } catch (error) {
      throw asApiError(ctx, error, limitBytes);
    } finally {
      deadline.stop();
    }
    const bytes: unknown = ctx.request.body;
    return parseJson(Buffer.isBuffer(bytes) ? bytes : Buffer.alloc(0));
  };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body's bytes as a JSON object or array (an empty body is `{}`), checked for depth and `__proto__`. */
function parseJson(bytes: Buffer): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw badRequest('invalid_encoding', 'The body is not valid UTF-8: send JSON encoded as UTF-8.');
  }
  if (text === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw badRequest('invalid_json', `The body is not valid JSON: ${(error as Error).message}`);
  }
  if (body === null || typeof body !== 'object') throw badRequest('invalid_json', 'The body is not valid JSON: only an object or an array is accepted.');
  checkJsonShape(body);
  return body;
}

const hasBody = (ctx: Context) => Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';

function asApiError(ctx: Context, error: unknown, limitBytes: number): unknown {
  if (error instanceof ApiError) return error;
  const { status, message } = error as { status?: number; message: string };
  if (status === 413) {
    // The rest of the body is not read: close the connection rather than leave it half-consumed.
    ctx.set('connection', 'close');
    return tooLarge(`The request body exceeds the limit of ${limitBytes} bytes.`);
  }
  // An unsupported Content-Encoding.
  if (status === 415) return unsupportedMediaType(message);
  // co-body inflates gzip, deflate and br bodies; zlib's errors carry an errno and no status.
  const encoding = ctx.get('content-encoding');
  if (status === undefined && encoding && 'errno' in (error as object)) {
    return badRequest('invalid_json', `The body could not be decoded as Content-Encoding ${encoding}: ${message}`);
  }
  // A client that left mid-body (raw-body's `request.aborted`) and anything unforeseen.
  return error;
}

export const isBodyTimeout = (error: unknown) => error instanceof ApiError && error.status === 408;

/**
 * A deadline for the request body, whoever reads it: `expired` rejects with a 408 (connection:
 * close) once the body arrives slower than `pace`, having paused the request (what is left is never
 * read), or with ECONNRESET when the client leaves before the body is complete. The bytes are
 * counted on the socket, so the reader (raw-body, busboy) is not disturbed. `stop()` once it is read.
 */
export function paceDeadline(ctx: Context, pace: BodyPace): { expired: Promise<never>; stop(): void } {
  const { req } = ctx;
  const started = performance.now();
  const bytesAtStart = req.socket.bytesRead;
  let fail!: (error: unknown) => void;
  const expired = new Promise<never>((_resolve, reject) => (fail = reject));
  expired.catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  // One timer, moved on only when it fires: the deadline grows with every byte that arrived meanwhile.
  const check = () => {
    const received = req.socket.bytesRead - bytesAtStart;
    const left = started + pace.baseMs + (received / pace.minBytesPerSecond) * 1000 - performance.now();
    if (left > 0) {
      timer = setTimeout(check, left + 1);
      return;
    }
    req.pause();
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    fail(
      new ApiError(
        408,
        'invalid_request_error',
        'request_timeout',
        `The request body arrived too slowly (${received} bytes in ${seconds} s): after the first ${pace.baseMs / 1000} s it must average at least ${Math.round(pace.minBytesPerSecond / 1024)} KB/s.`,
        // What is left of the body is never read: the connection cannot carry another request.
        { headers: { connection: 'close' } },
      ),
    );
  };
  timer = setTimeout(check, pace.baseMs);
  const abandoned = () => {
    if (!req.complete) fail(Object.assign(new Error('the client closed the connection during the request body'), { code: 'ECONNRESET' }));
  };
  req.once('close', abandoned);
  return {
    expired,
    stop() {
      clearTimeout(timer);
      req.off('close', abandoned);
    },
  };
}
