import { type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { HostAllowList } from '../address-policy.ts';
import { GuardedHttpError } from './errors.ts';
import { type CheckedTarget, checkedTarget, pinnedLookup } from './resolve.ts';

/**
 * An outbound HTTP request that cannot be turned against the server's own network (SSRF): only
 * http and https; the host is resolved and checked (resolve.ts) and the connection goes to exactly
 * the checked address, so there is no gap between the check and the connect for DNS rebinding;
 * redirects are followed here, not by the client, each hop checked again, at most MAX_REDIRECTS.
 */

export const MAX_REDIRECTS = 5;

export type GuardedRequest = {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  maxResponseBytes: number;
  allow: HostAllowList;
  /** Headers carrying credentials: dropped when a redirect leaves the first origin. */
  sensitiveHeaders?: readonly string[];
  /**
   * Headers bound to destinations: while a header is still sent, every hop's host and the address
   * it resolved to must satisfy its `allows`, or the request is refused before any byte leaves
   * (`http_destination_refused`, with `refusal`'s message).
   */
  boundHeaders?: readonly BoundHeader[];
  signal?: AbortSignal;
};

export type BoundHeader = { header: string; allows(host: string, address: string): boolean; refusal(host: string): string };

export type GuardedResponse = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer; url: string };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function guardedRequest(request: GuardedRequest): Promise<GuardedResponse> {
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  let url = parseUrl(request.url);
  const origin = url.origin;
  let { method, body } = request;
  let headers = request.headers;
  for (let hop = 0; ; hop++) {
    const target = await checkedTarget(url, request.allow);
    checkBound(request.boundHeaders, headers, url, target.address);
    const response = await send(url, target, { method, headers, body }, signal, timeout);
    const location = response.headers.location;
    if (!REDIRECTS.has(response.statusCode ?? 0) || !location) return { ...(await readBody(response, request.maxResponseBytes, timeout)), url: url.href };
    response.destroy();
    if (hop >= MAX_REDIRECTS) throw new GuardedHttpError('http_redirects', `more than ${MAX_REDIRECTS} redirects`);
    url = parseUrl(location, url);
    // As browsers do: 303, and 301/302 after a POST, continue as a GET without the body.
    if (response.statusCode === 303 || ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')) {
      method = method === 'HEAD' ? 'HEAD' : 'GET';
      body = undefined;
      headers = withoutHeaders(headers, ['content-type', 'content-length']);
    }
    if (url.origin !== origin) headers = withoutHeaders(headers, ['authorization', 'cookie', ...(request.sensitiveHeaders ?? [])]);
  }
}

/** Refuses the hop when a header it would carry may not go to this host or address. */
function checkBound(bound: readonly BoundHeader[] | undefined, headers: Record<string, string>, url: URL, address: string) {
  const sent = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  for (const rule of bound ?? []) {
    if (sent.has(rule.header.toLowerCase()) && !rule.allows(host, address)) throw new GuardedHttpError('http_destination_refused', rule.refusal(host));
  }
}

function parseUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new GuardedHttpError('http_bad_url', `${base ? 'a redirect' : 'the url'} is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new GuardedHttpError('http_bad_url', `only http and https URLs may be requested, not ${url.protocol.replace(/:$/, '')}`);
  return url;
}

const withoutHeaders = (headers: Record<string, string>, names: readonly string[]) => {
  const drop = new Set(names.map((n) => n.toLowerCase()));
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !drop.has(name.toLowerCase())));
};

type Hop = { method: string; headers: Record<string, string>; body: string | undefined };

function send(url: URL, target: CheckedTarget, hop: Hop, signal: AbortSignal, timeout: AbortSignal): Promise<IncomingMessage> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError(timeout));
    // agent: false, so no pooled socket (connected to an address checked for another request) is reused.
    const outgoing = request(url, { method: hop.method, headers: hop.headers, lookup: pinnedLookup(target) as never, agent: false, signal });
    outgoing.on('response', resolve);
    outgoing.on('error', (error) => reject(signal.aborted ? abortError(timeout) : new GuardedHttpError('http_network', `the request failed: ${networkReason(error)}`)));
    outgoing.end(hop.body);
  });
}

function readBody(response: IncomingMessage, maxBytes: number, timeout: AbortSignal): Promise<Omit<GuardedResponse, 'url'>> {
  return new Promise((resolve, reject) => {
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      response.destroy();
      return reject(tooLarge(maxBytes));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        response.destroy();
        reject(tooLarge(maxBytes));
      } else chunks.push(chunk);
    });
    response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    response.on('error', (error) => reject(timeout.aborted ? abortError(timeout) : new GuardedHttpError('http_network', `the response broke off: ${networkReason(error)}`)));
    response.on('aborted', () => reject(abortError(timeout)));
  });
}

const tooLarge = (maxBytes: number) => new GuardedHttpError('http_too_large', `the response is larger than ${maxBytes} bytes`);
const abortError = (timeout: AbortSignal) => (timeout.aborted ? new GuardedHttpError('http_timeout', 'the request timed out') : new GuardedHttpError('http_network', 'the request was cancelled'));

/** The system's reason (ECONNREFUSED, ENOTFOUND, a TLS failure), never the request's headers. */
const networkReason = (error: Error & { code?: string }) => error.code ?? error.message;
