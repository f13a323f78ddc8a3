import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createCanvas } from '@napi-rs/canvas';
import Koa, { type Context } from 'koa';
import { landingAssetRoutes } from '../../src/http/landing/assets.ts';
import { embedSnippet } from '../../src/http/landing/embed-snippet.ts';
import { type LandingPageView, landingPageHeaders, renderLandingPage } from '../../src/http/landing/page-html.ts';

/**
 * A loopback stand-in for the landing page's server routes, speaking docs/landing-page.md's wire
 * format with scripted answers: what the page's tests and bench run against while the real routes
 * (src/http/routes/landing.ts) are built elsewhere. The page's HTML, headers and assets are the
 * real ones; chat, feedback, history and page images are this file's. It tests the page's mapping
 * of the contract, not the server's.
 */
export type Citation = { index: number; source: string; page: number | null; paragraph: string; quote: string | null; image_url: string | null };
/** `failWith`: after the chunks, an `error` event (as src/http/sse.ts sends one) instead of the end. */
export type ScriptedAnswer = { id?: string; chunks: string[]; citations?: Citation[]; failWith?: Refusal };
export type Refusal = { status: number; code: string; retryAfter?: number };
export type TestAgent = {
  view: LandingPageView;
  /** The answer to each question, by question; `default` for any other. */
  answers: Record<string, ScriptedAnswer>;
  accessCode?: string;
  /** The next chat is refused with this, once. */
  refuseNext?: Refusal;
  history?: { id: string; role: 'user' | 'assistant'; content: string; citations?: Citation[] }[];
  /** The agent's `public.allowed_origins`: who may frame the page. */
  allowedOrigins?: string[];
};
export type Recorded = { chats: { slug: string; body: Record<string, unknown> }[]; feedback: { slug: string; body: Record<string, unknown> }[]; pageImages: string[] };

export async function startLandingTestServer() {
  const agents = new Map<string, TestAgent>();
  const recorded: Recorded = { chats: [], feedback: [], pageImages: [] };
  const [assets] = landingAssetRoutes();
  const app = new Koa();
  app.use(async (ctx) => {
    const parts = ctx.path.split('/').slice(1).map(decodeURIComponent);
    if (parts[0] === 'host' && parts[1]) return hostPage(ctx, parts[1]);
    if (parts[0] === 'assets' && parts[1] === 'landing' && parts[2]) return reply(ctx, await assets!.handle({ ctx, params: { file: parts[2] } } as never));
    if (parts[0] !== 'a' || !parts[1]) return notFound(ctx);
    const agent = agents.get(parts[1]);
    if (!agent) return notFound(ctx, 'agent_not_found');
    const [, slug, action] = parts as [string, string, string | undefined];
    if (ctx.method === 'GET' && !action) return page(ctx, agent);
    if (ctx.method === 'POST' && action === 'chat') return chat(ctx, slug, agent, recorded);
    if (ctx.method === 'POST' && action === 'feedback') {
      recorded.feedback.push({ slug, body: await json(ctx) });
      ctx.status = 204;
      return;
    }
    if (ctx.method === 'GET' && action === 'history') return void (ctx.body = { messages: agent.history ?? [] });
    if (ctx.method === 'GET' && action === 'pages') {
      recorded.pageImages.push(ctx.url);
      ctx.type = 'image/png';
      ctx.body = pagePng(Number(parts[4]));
      return;
    }
    notFound(ctx);
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    recorded,
    /** A page at another origin (localhost, not 127.0.0.1) that embeds the agent `slug` with its snippet. */
    hostUrl: (slug: string) => url.replace('127.0.0.1', 'localhost') + `/host/${slug}`,
    /** Serves `agent` at `/a/{agent.view.slug}`; returns the page's URL. */
    agent(agent: TestAgent): string {
      agents.set(agent.view.slug, agent);
      return `${url}/a/${agent.view.slug}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function page(ctx: Context, agent: TestAgent) {
  const nonce = randomBytes(16).toString('base64');
  ctx.set(landingPageHeaders(nonce, agent.allowedOrigins ?? []));
  ctx.body = renderLandingPage(agent.view, { nonce });
}

/** Someone else's page with the agent's embed snippet pasted in (as publish hands it out). */
function hostPage(ctx: Context, slug: string) {
  const origin = `${ctx.protocol}://127.0.0.1:${ctx.host.split(':')[1]}`;
  ctx.type = 'html';
  ctx.body = `<!doctype html><html lang="en"><head><title>Host</title></head><body><h1>Someone's site</h1>${embedSnippet(origin, slug, 'Handbook helper').script}</body></html>`;
}

async function chat(ctx: Context, slug: string, agent: TestAgent, recorded: Recorded) {
  const body = await json(ctx);
  recorded.chats.push({ slug, body });
  const refusal = agent.refuseNext;
  agent.refuseNext = undefined;
  if (refusal) return refuse(ctx, refusal);
  if (agent.accessCode && body.access_code !== agent.accessCode) {
    return refuse(ctx, { status: 401, code: body.access_code ? 'access_code_invalid' : 'access_code_required' });
  }
  const messages = body.messages as { role: string; content: string }[];
  const question = messages.at(-1)?.content ?? '';
  const answer = agent.answers[question] ?? agent.answers.default!;
  ctx.set({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  ctx.status = 200;
  ctx.respond = false;
  const res = ctx.res;
  res.writeHead(200);
  const id = answer.id ?? `msg_${randomBytes(6).toString('hex')}`;
  const base = { id, object: 'chat.completion.chunk', created: 0, model: 'agent' };
  // As the contract says (docs/landing-page.md): only the finishing chunk carries the citations, what the answer cites.
  res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: null }] })}\n\n`);
  for (const piece of answer.chunks) {
    await new Promise((r) => setTimeout(r, 15));
    res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`);
  }
  if (answer.failWith) {
    const { status, code } = answer.failWith;
    return res.end(`event: error\ndata: ${JSON.stringify({ error: { message: code, type: 'api_error', param: null, code }, status })}\n\n`);
  }
  res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], citations: answer.citations })}\n\n`);
  res.end('data: [DONE]\n\n');
}

function refuse(ctx: Context, { status, code, retryAfter }: Refusal) {
  ctx.status = status;
  if (retryAfter) ctx.set('retry-after', String(retryAfter));
  ctx.body = { error: { type: status === 429 ? 'rate_limit_error' : 'authentication_error', code, message: code } };
}

function notFound(ctx: Context, code = 'route_not_found') {
  ctx.status = 404;
  ctx.body = { error: { type: 'not_found_error', code, message: code } };
}

function reply(ctx: Context, { status, body, headers }: { status?: number; body: unknown; headers?: Record<string, string> }) {
  ctx.status = status ?? 200;
  if (headers) ctx.set(headers);
  ctx.body = body;
}

async function json(ctx: Context): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
}

/** A page image as the real route draws one: the page, the cited passage highlighted. */
function pagePng(page: number): Buffer {
  const canvas = createCanvas(300, 400);
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, 300, 400);
  g.fillStyle = 'rgba(255, 213, 0, .5)';
  g.fillRect(20, 60, 260, 40);
  g.fillStyle = '#000';
  g.font = '16px sans-serif';
  g.fillText(`Page ${page}`, 20, 30);
  return canvas.toBuffer('image/png');
}
