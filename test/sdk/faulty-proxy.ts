import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the proxy does with one request: pass it through, refuse it with a status without
 * forwarding it (the server never sees it), or forward it and answer the status instead of the
 * server's response (the request ran, its answer was lost: a gateway failing on the way back).
 */
export type Fault = { status: number; forward: boolean } | null;

export type Seen = { method: string; path: string; headers: IncomingMessage['headers']; forwardedStatus: number | null; forwardedBody: string | null };

/** A loopback proxy in front of the real server whose `plan` injects faults, recording every request it saw. */
export async function faultyProxy(target: string, plan: (req: { method: string; path: string; n: number }) => Fault) {
  const seen: Seen[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = req.method!;
    const path = req.url!;
    const fault = plan({ method, path, n: seen.filter((s) => s.method === method && s.path === path).length });
    const record: Seen = { method, path, headers: req.headers, forwardedStatus: null, forwardedBody: null };
    seen.push(record);
    if (fault && !fault.forward) return fail(fault.status);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<string, string>;
    const upstream = await fetch(target + path, { method, headers, body: chunks.length > 0 ? Buffer.concat(chunks) : undefined });
    const body = Buffer.from(await upstream.arrayBuffer());
    record.forwardedStatus = upstream.status;
    record.forwardedBody = body.toString('utf8');
    if (fault) return fail(fault.status);
    const passed: Record<string, string> = {};
    upstream.headers.forEach((v, k) => {
      if (!['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(k)) passed[k] = v;
    });
    res.writeHead(upstream.status, passed).end(body);

    function fail(status: number) {
      const error = { message: 'Injected by the test proxy.', type: 'server_error', param: null, code: 'upstream_unavailable' };
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()).closeAllConnections()),
  };
}
