import test from 'ava';
import { startServer } from '../helpers/server.ts';

test('a search whose client disconnects after sending its body is cancelled', async (t) => {
  const server = await startServer();
  t.teardown(() => server.close());
  const kb = (await server.call('POST', '/v1/knowledge-bases', { json: { name: 'cancel' } })).body;
  const search = server.runtime.search;
  const original = search.search;
  let signalled: (aborted: boolean) => void;
  const outcome = new Promise<boolean>((resolve) => (signalled = resolve));
  let started: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  // Stands in for a long search: it waits for the route's signal, or gives up after 10 s.
  search.search = (async (_principal: unknown, _kbId: string, _request: unknown, signal: AbortSignal) => {
    started();
    const timer = setTimeout(() => signalled(false), 10_000);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      signalled(true);
    });
    await outcome;
    throw new Error('cancelled');
  }) as typeof search.search;
  t.teardown(() => void (search.search = original));

  const client = new AbortController();
  const request = fetch(`${server.url}/v1/knowledge-bases/${kb.id}/search`, {
    method: 'POST',
    headers: { authorization: 'Bearer test-admin-key-0123456789abcdef', 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'anything at all' }),
    signal: client.signal,
  }).catch(() => null);
  await running;
  client.abort();
  await request;
  t.true(await outcome, 'the search saw its signal abort when the client left');
});
