import { Transform } from 'node:stream';
import type { Context } from 'koa';
import { ApiError, badRequest, tooLarge, unsupportedMediaType } from '../app/errors.ts';

/**
 * How fast a request body must arrive: once `baseMs` have passed, at least `minBytesPerSecond`
 * on average since the body began. So a body of n bytes has base + n / rate to arrive, whether
 * its length was declared or it comes chunked, and a client that stalls is cut off early.
 */
export type BodyPace = { baseMs: number; minBytesPerSecond: number };

/** Reads a JSON body without trusting Content-Length, stops reading at the limit, and within the pace. */
export async function readJson(ctx: Context, limitBytes: number, pace: BodyPace): Promise<unknown> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limitBytes) throw bodyTooLarge(ctx, limitBytes);
  const hasBody = declared > 0 || ctx.get('transfer-encoding') !== '';
  if (!hasBody) return {};
  if (!ctx.is('application/json')) {
    throw unsupportedMediaType(`Content-Type must be application/json, not '${ctx.get('content-type') || 'none'}'.`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of pacedBody(ctx, pace) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limitBytes) throw bodyTooLarge(ctx, limitBytes);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest('invalid_json', `The body is not valid JSON: ${(error as Error).message}`);
  }
}

function bodyTooLarge(ctx: Context, limitBytes: number) {
  // The rest of the body is not read: close the connection rather than leave it half-consumed.
  ctx.set('connection', 'close');
  return tooLarge(`The request body exceeds the limit of ${limitBytes} bytes.`);
}

export const isBodyTimeout = (error: unknown) => error instanceof ApiError && error.status === 408;

/**
 * The request body as a stream that fails with a 408 (connection: close) when the client sends
 * it slower than `pace` allows. Read it (or pipe it) instead of `ctx.req`. Leaving it early only
 * stops it; the request itself stays intact, so the error response can still go out.
 */
export function pacedBody(ctx: Context, pace: BodyPace): Transform {
  const req = ctx.req;
  const started = performance.now();
  let received = 0;
  const body = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      callback(null, chunk);
    },
  });
  let timer: NodeJS.Timeout | undefined;
  // One timer, moved on only when it fires: the deadline grows with every byte that arrived meanwhile.
  const check = () => {
    const left = started + pace.baseMs + (received / pace.minBytesPerSecond) * 1000 - performance.now();
    if (left > 0) {
      timer = setTimeout(check, left + 1);
      return;
    }
    req.unpipe(body);
    req.pause();
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    body.destroy(
      new ApiError(
        408,
        'invalid_request_error',
        'request_timeout',
        `The request body arrived too slowly (${received} bytes in ${seconds} s): after the first ${pace.baseMs / 1000} s it must average at least ${Math.round(pace.minBytesPerSecond / 1024)} KB/s.`,
        null,
        // What is left of the body is never read: the connection cannot carry another request.
        { connection: 'close' },
      ),
    );
  };
  timer = setTimeout(check, pace.baseMs);
  const stop = () => clearTimeout(timer);
  body.once('end', stop).once('close', stop);
  // pipe() does not pass on a source's failure: a client that leaves mid-body must end the read too.
  const abandoned = () => {
    if (!req.complete) body.destroy(Object.assign(new Error('the client closed the connection during the request body'), { code: 'ECONNRESET' }));
  };
  req.once('error', abandoned).once('close', abandoned);
  body.once('close', () => req.off('error', abandoned).off('close', abandoned));
  req.pipe(body);
  return body;
}
