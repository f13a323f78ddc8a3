import type { Context } from 'koa';
import { badRequest, tooLarge, unsupportedMediaType } from '../app/errors.ts';

/** Reads a JSON body without trusting Content-Length, and stops reading at the limit. */
export async function readJson(ctx: Context, limitBytes: number): Promise<unknown> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limitBytes) throw bodyTooLarge(ctx, limitBytes);
  const hasBody = declared > 0 || ctx.get('transfer-encoding') !== '';
  if (!hasBody) return {};
  if (!ctx.is('application/json')) {
    throw unsupportedMediaType(`Content-Type must be application/json, not '${ctx.get('content-type') || 'none'}'.`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
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
