import { createServer, STATUS_CODES, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';

export type ServerLimits = {
  /** The request line and headers must all arrive within this (else 408 and the connection closes). */
  headersTimeoutMs: number;
  /** An idle keep-alive connection closes after this. */
  keepAliveTimeoutMs: number;
  /** Connections beyond this are closed as they are accepted; 0: no cap. */
  maxConnections: number;
};

/**
 * The HTTP server with limits on slow and greedy clients: headers within `headersTimeoutMs`,
 * idle keep-alive connections closed, open connections capped. Bodies have a deadline of their
 * own that grows with their size (body.ts), so Node's fixed requestTimeout (300 s by default,
 * which would cut a large upload on a slow link) is off.
 */
export function createHttpServer(handler: RequestListener, limits: ServerLimits): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: 0,
      // Node looks for expired headers only this often (30 s by default, which would make 10 s up to 40).
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    },
    handler,
  );
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  if (limits.maxConnections > 0) server.maxConnections = limits.maxConnections;
  server.on('clientError', answerClientError);
  return server;
}

const CLIENT_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'request_timeout', message: 'The request headers did not arrive in time.' },
  HPE_HEADER_OVERFLOW: { status: 431, code: 'headers_too_large', message: 'The request headers are too large.' },
};
const MALFORMED = { status: 400, code: 'invalid_http', message: 'The request is not valid HTTP/1.1.' };

/**
 * What Node does for a request it could not read (headers too slow, too large, malformed), with
 * the API's error body: answer only on a connection that has sent no response yet, then close it.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || !socket.writable || socket.bytesWritten > 0) {
    socket.destroy();
    return;
  }
  const { status, code, message } = CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED;
  const body = JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}

/** Where a listening server answers, as a client would write it: the address it bound, not the one asked for. */
export function boundOrigin(server: Server): { origin: string; everyInterface: boolean } {
  const address = server.address();
  if (address === null || typeof address !== 'object') throw new Error('the server is not listening on a TCP port');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { origin: `http://${host}:${address.port}`, everyInterface: address.address === '0.0.0.0' || address.address === '::' };
}
