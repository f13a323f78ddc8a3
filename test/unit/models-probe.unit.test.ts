import test from 'ava';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createModelsProbe } from '../../src/adapters/openai/models-probe.ts';

/** A loopback server answering every request with `handle`; its /v1 root. */
async function serve(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { port, close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}

const probe = createModelsProbe();

test('a server that does not answer in time is a timeout', async (t) => {
  const server = await serve(() => {});
  const result = await probe.listModels(`http://127.0.0.1:${server.port}/v1`, 'k', { timeoutMs: 150 });
  t.like(result, { ok: false, error: { code: 'timeout' } });
  await server.close();
});

test('https to a server that speaks plain http is a TLS error', async (t) => {
  const server = await serve((_req, res) => res.end('{}'));
  const result = await probe.listModels(`https://127.0.0.1:${server.port}/v1`, 'k', { timeoutMs: 5000 });
  t.like(result, { ok: false, error: { code: 'tls_error' } });
  await server.close();
});

test('an answer that is not a model list, and a provider failure, are named', async (t) => {
  const server = await serve((req, res) => {
    if (req.url === '/broken/models') return res.writeHead(500).end('oops');
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>');
  });
  t.like(await probe.listModels(`http://127.0.0.1:${server.port}/v1`, 'k'), { ok: false, error: { code: 'invalid_response' } });
  t.like(await probe.listModels(`http://127.0.0.1:${server.port}/broken`, 'k'), { ok: false, error: { code: 'provider_error' } });
  await server.close();
});

test('the key is sent as a bearer token, to {base_url}/models (a trailing slash or not), and never appears in a message', async (t) => {
  const seen: { url?: string; authorization?: string }[] = [];
  const server = await serve((req, res) => {
    seen.push({ url: req.url, authorization: req.headers.authorization });
    res.writeHead(403).end();
  });
  const result = await probe.listModels(`http://127.0.0.1:${server.port}/v1/`, 'sk-never-shown');
  t.like(result, { ok: false, error: { code: 'auth_failed' } });
  t.deepEqual(seen, [{ url: '/v1/models', authorization: 'Bearer sk-never-shown' }]);
  t.false(JSON.stringify(result).includes('sk-never-shown'));
  await server.close();
});
