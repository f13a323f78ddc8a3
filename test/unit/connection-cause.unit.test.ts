import test from 'ava';
import { connectionCause } from '../../src/adapters/openai/connection-cause.ts';

/** As undici and the openai client nest them: the client's error, fetch's TypeError, the socket's error. */
const nested = (code: string) => Object.assign(new Error('Connection error.'), { cause: Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('socket'), { code }) }) });

test('a failed connection says why, from the socket’s code however deep it is', (t) => {
  t.like(connectionCause(nested('ECONNREFUSED')), { code: 'connection_refused' });
  t.like(connectionCause(nested('ENOTFOUND')), { code: 'dns_failed' });
  t.like(connectionCause(nested('EAI_AGAIN')), { code: 'dns_failed' });
  t.like(connectionCause(nested('UND_ERR_CONNECT_TIMEOUT')), { code: 'timeout' });
  t.like(connectionCause(nested('DEPTH_ZERO_SELF_SIGNED_CERT')), { code: 'tls_error' });
  t.like(connectionCause(nested('ERR_TLS_CERT_ALTNAME_INVALID')), { code: 'tls_error' });
  t.regex(connectionCause(nested('ECONNRESET')).says, /ECONNRESET/);
});

test('a provider’s own lower-case error code is not taken for a socket’s', (t) => {
  const apiError = Object.assign(new Error('Incorrect API key'), { code: 'invalid_api_key' });
  t.deepEqual(connectionCause(apiError), { code: 'connection_failed', says: 'the connection failed' });
});
