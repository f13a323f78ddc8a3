import test from 'ava';
import { clientAddress } from '../../src/http/client-address.ts';

const request = (forwardedFor: string[], connection = '10.0.0.2') => ({ ips: forwardedFor, req: { socket: { remoteAddress: connection } } }) as unknown as Parameters<typeof clientAddress>[0];

test('the address is the entry the outermost trusted proxy appended; what the client wrote before it never counts', (t) => {
  t.is(clientAddress(request(['198.51.100.1', '203.0.113.9']), 1), '203.0.113.9');
  t.is(clientAddress(request(['198.51.100.1', '203.0.113.9', '10.1.1.1']), 2), '203.0.113.9', 'two proxies: the first one’s entry');
  t.is(clientAddress(request(['198.51.100.1']), 0), '10.0.0.2', 'no proxy: only the connection');
  t.is(clientAddress(request([]), 1), '10.0.0.2', 'no header: the connection');
  t.is(clientAddress(request(['203.0.113.9']), 3), '203.0.113.9', 'fewer entries than proxies: the farthest there is');
});
