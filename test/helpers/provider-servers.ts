import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** An HTTP error answer a provider may give; `body` is sent as JSON. */
export type ProviderFailure = { status: number; body?: unknown; headers?: Record<string, string> };

export type RecordedRequest = { url: string | undefined; authorization: string | undefined; body: Record<string, unknown> };

type Loopback = {
  baseUrl: string;
  requests: RecordedRequest[];
  /** Responses the client dropped before they were finished. */
  readonly disconnects: number;
  untilDisconnects(count: number): Promise<void>;
  untilRequests(count: number): Promise<void>;
  close(): Promise<void>;
};

type Common = {
  /** The first `failFirst` requests get `failure` (default: 429 with retry-after: 0). */
  failFirst?: number;
  failure?: ProviderFailure;
  /** Wait this long before any answer, headers included: the client's timeout fires first. */
  stallMs?: number;
};

export type ChatServerOptions = Common & {
  /** The answer, one piece per streamed chunk. */
  pieces?: string[];
  finishReason?: string;
  /** Whether usage is reported (as OpenAI does when asked); older Ollama sends none. */
  usage?: { prompt_tokens: number; completion_tokens: number } | false;
  /** Pause between streamed chunks, so a client can leave mid-stream. */
  chunkDelayMs?: number;
  /** Send this many content chunks, then go silent with the connection open. */
  silentAfterChunks?: number;
  /** End the stream with `[DONE]` after the content, without the finish reason: how llama-cpp-python's server cuts a stream off when another request comes in. */
  cutOff?: boolean;
  /** Answer a streamed request with 200 and an empty body: how llama-cpp-python's server answers a prompt longer than its context window. */
  emptyStream?: boolean;
  /** Decides the answer from the request: text pieces, or function calls (finish reason `tool_calls`). */
  respond?: (body: Record<string, unknown>) => { pieces?: string[]; toolCalls?: LoopToolCall[] };
};

export type LoopToolCall = { id: string; name: string; arguments: string };

export type ChatServer = Loopback;

const CREATED = 1_700_000_000;

/**
 * What a server's environment needs for workspace providers on these loopback stand-ins: their
 * base_url is loopback, which the address policy refuses unless the operator allows it (as it
 * does for the workflow HTTP node: docs/model-providers.md).
 */
export const LOOPBACK_PROVIDERS: Record<string, string> = { KBQA_WORKFLOW_HTTP_ALLOW_HOSTS: '127.0.0.1' };

/** The server's environment for a provider model `loop-chat` served by a loopback chat server at `baseUrl`. */
export const loopbackChatEnv = (baseUrl: string, extra: Record<string, string> = {}): Record<string, string> => ({
  OPENAI_API_KEY: 'sk-loopback',
  OPENAI_BASE_URL: baseUrl,
  KBQA_OPENAI_CHAT_MODELS: 'loop-chat',
  KBQA_OPENAI_MAX_RETRIES: '0',
  ...extra,
});

/**
 * A loopback `/v1/chat/completions` in OpenAI's wire format: a `chat.completion` JSON answer, or with
 * `stream: true` an SSE stream of `chat.completion.chunk`s (role first, then content, then the
 * finish reason, then a usage-only chunk when `stream_options.include_usage`, then `[DONE]`).
 */
export function startChatServer(options: ChatServerOptions = {}): Promise<ChatServer> {
  return listen('/v1/chat/completions', options, chatAnswer(options));
}

function chatAnswer(options: ChatServerOptions): Answer {
  const { usage = { prompt_tokens: 11, completion_tokens: 4 } } = options;
  return async (body, res, isOpen) => {
    const model = String(body.model);
    const { pieces, toolCalls, finishReason } = answerTo(body, options);
    const usageBody = usage ? { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } : undefined;
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      const calls = toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
      const message = { role: 'assistant', content: toolCalls.length > 0 && pieces.length === 0 ? null : pieces.join(''), refusal: null, ...(calls.length > 0 && { tool_calls: calls }) };
      return res.end(JSON.stringify({ id: 'chatcmpl-loop', object: 'chat.completion', created: CREATED, model, choices: [{ index: 0, message, logprobs: logprobsOf(body, pieces), finish_reason: finishReason }], ...(usageBody && { usage: usageBody }) }));
    }
    const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true && usageBody !== undefined;
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-loop', object: 'chat.completion.chunk', created: CREATED, model, system_fingerprint: 'fp_loop', choices, ...(includeUsage && { usage: null }), ...extra })}\n\n`;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    if (options.emptyStream) return res.end();
    res.write(chunk([{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]));
    for (const [i, piece] of pieces.entries()) {
      if (options.chunkDelayMs) await sleep(options.chunkDelayMs);
      if (!isOpen()) return;
      if (options.silentAfterChunks !== undefined && i >= options.silentAfterChunks) return; // never ends: the client must give up
      res.write(chunk([{ index: 0, delta: { content: piece }, logprobs: logprobsOf(body, [piece]), finish_reason: null }]));
    }
    for (const delta of toolCallDeltas(toolCalls)) res.write(chunk([{ index: 0, delta, logprobs: null, finish_reason: null }]));
    if (options.cutOff) return res.end('data: [DONE]\n\n');
    res.write(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: finishReason }]));
    if (includeUsage) res.write(chunk([], { usage: usageBody }));
    res.end('data: [DONE]\n\n');
  };
}

/** With `logprobs: true`, one made-up entry per piece, as OpenAI gives one per token. */
function logprobsOf(body: Record<string, unknown>, pieces: string[]) {
  if (body.logprobs !== true) return null;
  return { content: pieces.map((token) => ({ token, logprob: -0.5, bytes: null, top_logprobs: [] })), refusal: null };
}

function answerTo(body: Record<string, unknown>, options: ChatServerOptions) {
  const decided = options.respond?.(body) ?? {};
  const toolCalls = decided.toolCalls ?? [];
  const pieces = decided.pieces ?? options.pieces ?? (decided.toolCalls ? [] : ['Hello', ', ', 'world', '.']);
  return { pieces, toolCalls, finishReason: toolCalls.length > 0 ? 'tool_calls' : (options.finishReason ?? 'stop') };
}

/** As OpenAI streams a call: its id and name first, then its arguments in two pieces. */
function toolCallDeltas(calls: LoopToolCall[]) {
  return calls.flatMap((call, index) => {
    const half = Math.ceil(call.arguments.length / 2);
    return [
      { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] },
      ...[call.arguments.slice(0, half), call.arguments.slice(half)].map((part) => ({ tool_calls: [{ index, function: { arguments: part } }] })),
    ];
  });
}

export type RerankServerOptions = Common & {
  /** The raw score of a document; the default is the share of query words it contains. */
  scoreOf?: (query: string, document: string) => number;
  /** Sent as the 200 answer instead of the scores, to play a broken provider. */
  answer?: unknown;
};

export type RerankServer = Loopback;

/**
 * A loopback Cohere/Jina-style `/rerank`: `{results: [{index, relevance_score}]}` for the best
 * `top_n`, listed in document order (not best first) so that clients must sort.
 */
export function startRerankServer(options: RerankServerOptions = {}): Promise<RerankServer> {
  return listen('/v1/rerank', options, rerankAnswer(options));
}

function rerankAnswer(options: RerankServerOptions): Answer {
  const scoreOf = options.scoreOf ?? wordOverlap;
  return async (body, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (options.answer !== undefined) return res.end(typeof options.answer === 'string' ? options.answer : JSON.stringify(options.answer));
    const documents = body.documents as string[];
    const scored = documents.map((document, index) => ({ index, relevance_score: scoreOf(String(body.query), document) }));
    const best = [...scored].sort((a, b) => b.relevance_score - a.relevance_score).slice(0, Number(body.top_n ?? documents.length));
    res.end(JSON.stringify({ id: 'rerank-loop', results: best.sort((a, b) => a.index - b.index), meta: { billed_units: { search_units: 1 } } }));
  };
}

/** A deterministic vector for a text (sha-256 bytes, repeated), so tests can check which text got which vector. */
export function loopVector(text: string, dimensions: number): number[] {
  const digest = createHash('sha256').update(text).digest();
  return Array.from({ length: dimensions }, (_, i) => (digest[i % digest.length]! - 128) / 128);
}

/**
 * One loopback provider that serves what a workspace provider's base_url serves: `/v1/chat/completions`
 * (as startChatServer), `/v1/embeddings` (vectors of `dimensions`, or of the request's) and `/v1/rerank`
 * (as startRerankServer). `failFirst` and `failure` apply to every path alike.
 */
export function startProviderServer(options: ChatServerOptions & RerankServerOptions & { dimensions?: number } = {}): Promise<Loopback> {
  const dimensions = options.dimensions ?? 8;
  const embeddings: Answer = async (body, res) => {
    const input = (Array.isArray(body.input) ? body.input : [body.input]) as string[];
    const size = typeof body.dimensions === 'number' ? body.dimensions : dimensions;
    const data = input.map((text, index) => ({ object: 'embedding', index, embedding: loopVector(text, size) }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: input.length, total_tokens: input.length } }));
  };
  return listen({ '/v1/chat/completions': chatAnswer(options), '/v1/embeddings': embeddings, '/v1/rerank': rerankAnswer(options) }, options);
}

function wordOverlap(query: string, document: string): number {
  const words = new Set(document.toLowerCase().match(/\w+/g) ?? []);
  const asked = query.toLowerCase().match(/\w+/g) ?? [];
  return asked.length === 0 ? 0 : asked.filter((w) => words.has(w)).length / asked.length;
}

type Answer = (body: Record<string, unknown>, res: ServerResponse, isOpen: () => boolean) => Promise<unknown>;

async function listen(path: string | Record<string, Answer>, options: Common, answer?: Answer): Promise<Loopback> {
  const answers: Record<string, Answer> = typeof path === 'string' ? { [path]: answer! } : path;
  const requests: RecordedRequest[] = [];
  let failures = options.failFirst ?? 0;
  let disconnects = 0;
  const waiters: { count: number; resolve(): void }[] = [];
  const requestWaiters: { count: number; resolve(): void }[] = [];
  const server = createServer(async (req, res) => {
    let open = true;
    res.on('close', () => {
      open = false;
      if (res.writableFinished) return;
      disconnects++;
      for (const w of waiters.filter((w) => disconnects >= w.count)) w.resolve();
    });
    const raw = await read(req);
    const body = (raw ? JSON.parse(raw) : {}) as Record<string, unknown>;
    requests.push({ url: req.url, authorization: req.headers.authorization, body });
    for (const w of requestWaiters.filter((w) => requests.length >= w.count)) w.resolve();
    const answerer = req.method === 'POST' ? answers[req.url ?? ''] : undefined;
    if (!answerer) return res.writeHead(404).end();
    if (options.stallMs) await sleep(options.stallMs);
    if (!open) return;
    if (failures-- > 0) {
      const { status, body: errorBody, headers } = options.failure ?? { status: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } } };
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      return res.end(JSON.stringify(errorBody ?? { error: { message: `failure ${status}`, type: 'server_error', code: null } }));
    }
    await answerer(body, res, () => open);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    get disconnects() {
      return disconnects;
    },
    untilDisconnects: (count) => (disconnects >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
    untilRequests: (count) => (requests.length >= count ? Promise.resolve() : new Promise((resolve) => requestWaiters.push({ count, resolve }))),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function read(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sleep(ms: number) {
  return new Promise<void>((resolve) => setTimeout(resolve, ms));
}
