import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';

export type EmbeddingsServer = {
  baseUrl: string;
  requests: { authorization: string | undefined; model: string; inputs: string[]; dimensions?: number }[];
  close(): Promise<void>;
};

/** A deterministic vector for a text, so tests can check which text got which vector. */
export function vectorFor(text: string, dimensions: number): number[] {
  const digest = createHash('sha256').update(text).digest();
  return Array.from({ length: dimensions }, (_, i) => (digest[i % digest.length]! - 128) / 128);
}

/**
 * A loopback server that speaks OpenAI's /v1/embeddings wire format: it answers the first
 * `failFirst` requests with 429 (retry-after: 0), then with vectors listed in reverse order
 * (each carrying its `index`), the way a real provider is allowed to. A request's `dimensions` shortens the vectors, as text-embedding-3 does.
 * GET /v1/models lists `models` (the connection check and discovery of model providers).
 */
export async function startEmbeddingsServer({
  dimensions,
  failFirst = 0,
  apiKey,
  models = [],
  delayMs = 0,
}: {
  dimensions: number;
  /** How long each /v1/embeddings answer waits (a slow provider: long enough to watch a re-index's progress). */
  delayMs?: number;
  failFirst?: number;
  /** When set, GET /v1/models answers 401 to any other bearer key. */
  apiKey?: string;
  /** What GET /v1/models lists, as OpenAI does ({object:"model", id, owned_by}). */
  models?: string[];
}): Promise<EmbeddingsServer> {
  const requests: EmbeddingsServer['requests'] = [];
  let failures = failFirst;
  const server = createServer(async (req, res) => {
    if (req.method === 'GET' && req.url === '/v1/models') {
      if (apiKey !== undefined && req.headers.authorization !== `Bearer ${apiKey}`) {
        res.writeHead(401, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } }));
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'loopback' })) }));
    }
    if (req.method === 'GET') return res.writeHead(404).end();
    const body = JSON.parse(await read(req)) as { model: string; input: string[]; dimensions?: number };
    requests.push({ authorization: req.headers.authorization, model: body.model, inputs: body.input, ...(body.dimensions !== undefined && { dimensions: body.dimensions }) });
    if (req.url !== '/v1/embeddings') return res.writeHead(404).end();
    if (failures-- > 0) {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
      return res.end(JSON.stringify({ error: { message: 'slow down', type: 'rate_limit_error', code: 'rate_limit_exceeded' } }));
    }
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const data = body.input.map((text, index) => ({ object: 'embedding', index, embedding: vectorFor(text, body.dimensions ?? dimensions) })).reverse();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function read(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
