import { FORBIDDEN_ADDRESS } from '../../lib/guarded-http/resolve.ts';

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(GET|VERIFY)_|EPROTO$)/;
// Node's and undici's codes are upper case; a provider's own (`invalid_api_key` on an API error) is not a socket's.
const SYSTEM_CODE = /^[A-Z][A-Z0-9_]+$/;

export const isTlsCode = (code: string) => TLS_CODES.test(code);

/** Failures that another attempt a moment later will not mend: nothing listens there, or the name resolves to nothing. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);
export const isUnreachable = (code: string | undefined) => code !== undefined && UNREACHABLE.has(code);

/** The error code of a failed fetch: undici (and the openai client around it) wraps the socket's error in `cause`, sometimes twice. */
export function causeCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && SYSTEM_CODE.test(code)) return code;
  }
  return undefined;
}

/** Whether the address policy refused the host (src/lib/guarded-http/fetch.ts), however deep in the causes. */
export function refusedAddress(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === FORBIDDEN_ADDRESS) return true;
  }
  return false;
}

/** What a refused base_url is told: the policy, and the one setting that lifts it. */
export const REFUSED_ADDRESS_SAYS = 'its address is not public (loopback, private, link-local …) and KBQA_WORKFLOW_HTTP_ALLOW_HOSTS does not allow it';

export type ConnectionCause = { code: 'forbidden_address' | 'dns_failed' | 'connection_refused' | 'timeout' | 'tls_error' | 'connection_failed'; says: string };

/**
 * Why a connection failed, in words that say what to fix, from the socket's code. The host is not
 * named here: a deployment's provider is not the caller's to know; callers that may name it do.
 */
export function connectionCause(error: unknown): ConnectionCause {
  if (refusedAddress(error)) return { code: 'forbidden_address', says: REFUSED_ADDRESS_SAYS };
  const code = causeCode(error);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { code: 'dns_failed', says: `its host name could not be resolved (${code})` };
  if (code === 'ECONNREFUSED') return { code: 'connection_refused', says: 'it refused the connection (ECONNREFUSED): nothing listens on that port' };
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') return { code: 'timeout', says: `it did not accept the connection in time (${code})` };
  if (code && isTlsCode(code)) return { code: 'tls_error', says: `the TLS handshake failed (${code}); check https/http and the certificate` };
  return { code: 'connection_failed', says: `the connection failed${code ? ` (${code})` : ''}` };
}
