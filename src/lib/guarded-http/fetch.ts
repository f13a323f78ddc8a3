import { type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { HostAllowList } from '../address-policy.ts';
import { checkedTarget, pinnedLookup } from './resolve.ts';

/**
 * A `fetch` under the address policy, for clients that take one (the openai package, the rerank
 * adapter, the models probe) when the URL is a tenant's to choose: the host is resolved and every
 * address checked as guardedRequest's are (resolve.ts: loopback, private, link-local … refused
 * unless `allow` lets them), and the socket goes to exactly the checked address, so DNS rebinding
 * has no gap. Redirects are not followed: a 3xx is the answer (as `redirect: 'manual'`), since a
 * tenant's server could otherwise point the next hop anywhere.
 *
 * It fails as fetch does: a TypeError('fetch failed') whose cause says why (a refused address is
 * a GuardedHttpError `http_forbidden_address`; a socket's error keeps its code), and the signal's
 * reason when the signal aborts. The answer streams; bodies are strings, bytes or URLSearchParams.
 */
export function guardedFetch(allow: HostAllowList): typeof fetch {
  return async (input, init = {}) => {
    const { url, method, headers, body, signal } = await outgoingOf(input, init);
    signal?.throwIfAborted();
    let target;
    try {
      target = await checkedTarget(url, allow);
    } catch (error) {
      throw new TypeError('fetch failed', { cause: error });
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      // agent: false, so no pooled socket (connected to an address checked for another request) is reused.
      const outgoing = send(url, { method, headers, lookup: pinnedLookup(target) as never, agent: false, signal });
      outgoing.on('response', resolve);
      outgoing.on('error', (error) => reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error })));
      outgoing.end(body);
    });
    return toResponse(response, method);
  };
}

/** What fetch's arguments ask for, from a URL and init or a Request. */
async function outgoingOf(input: string | URL | Request, init: RequestInit) {
  const request = input instanceof Request ? input : undefined;
  const url = new URL(request?.url ?? String(input));
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('fetch failed', { cause: new Error(`only http and https, not ${url.protocol}`) });
  const headers = new Headers(request?.headers);
  new Headers(init.headers).forEach((value, name) => headers.set(name, value));
  const body = await bodyBytes(init.body ?? (request?.body ? await request.arrayBuffer() : undefined));
  if (body) headers.set('content-length', String(body.length));
  const method = init.method ?? request?.method ?? 'GET';
  return { url, method, headers: Object.fromEntries(headers), body, signal: init.signal ?? request?.signal ?? undefined };
}

async function bodyBytes(body: BodyInit | ArrayBuffer | null | undefined): Promise<Buffer | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return Buffer.from(body instanceof ArrayBuffer ? body : body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength));
  // A stream, a Blob, FormData: what a Response can read into bytes.
  return Buffer.from(await new Response(body as BodyInit).arrayBuffer());
}

const NO_BODY = new Set([101, 204, 205, 304]);

function toResponse(incoming: IncomingMessage, method: string): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  const status = incoming.statusCode ?? 502;
  if (NO_BODY.has(status) || method === 'HEAD') {
    incoming.resume();
    return new Response(null, { status, statusText: incoming.statusMessage ?? '', headers });
  }
  // As fetch does: the body decoded, and its encoding's headers no longer describing it.
  const decoder = { gzip: createGunzip, 'x-gzip': createGunzip, deflate: createInflate, br: createBrotliDecompress }[headers.get('content-encoding')?.trim().toLowerCase() ?? ''];
  let stream: Readable = incoming;
  if (decoder) {
    stream = incoming.pipe(decoder());
    incoming.on('error', (error) => stream.destroy(error));
    headers.delete('content-encoding');
    headers.delete('content-length');
  }
  return new Response(Readable.toWeb(stream) as ReadableStream, { status, statusText: incoming.statusMessage ?? '', headers });
}
