import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { LandingPageService, PublishedAgent } from '../../app/services/landing-page.ts';
import { publicCitation } from '../../app/services/landing-page.ts';
import { badRequest } from '../../app/errors.ts';
import { ApiError } from '../../ports/api-error.ts';
import { LandingChatBody, LandingChatCompletion, LandingFeedbackBody, LandingHistory, LandingPageImageQuery } from '../../../schemas/http/landing.ts';
import { abortOnDisconnect } from '../client-abort.ts';
import { landingPageHeaders, renderLandingPage } from '../landing/page-html.ts';
import { streamLandingChat } from '../landing-chat-stream.ts';
import { clientAddress } from '../client-address.ts';
import { createRateLimiter, type RateLimiter } from '../rate-limit.ts';
import { route } from '../route.ts';
import { openEventStream } from '../sse.ts';
import { secureContext } from '../secure-context.ts';
import { readVisitor, VISITOR_COOKIE, visitorCookie, type Visitor } from '../visitor-cookie.ts';

const tag = 'landing';
/** Anonymous work takes the `landing` class, each agent (its slug) at most its share of it: one page's flood leaves the others room. */
const bySlug = (params: Record<string, string>) => params.slug!;
/** A visitor's request is small: a question and a few earlier turns. */
export const LANDING_MAX_BODY_BYTES = 32 * 1024;

/** Feedback one visitor may give one agent a minute: a person rates a few answers, a script thousands. */
export const FEEDBACK_PER_MINUTE = 10;

export type LandingRouteDeps = {
  landing: LandingPageService;
  messagesPerMinutePerIp: number;
  /** Wrong access codes an agent takes a minute, all addresses together (0: no limit). */
  codeFailuresPerMinute: number;
  /** Proxies in front that append to X-Forwarded-For (client-address.ts). */
  trustProxy: number;
  cookieKey: Buffer;
  onServerError(error: unknown, requestId: string): void;
};

/** The landing pages' routes (docs/landing-page.md): no key; the slug names the published agent, the cookie the visitor. */
export function landingRoutes({ landing, messagesPerMinutePerIp, codeFailuresPerMinute, trustProxy, cookieKey, onServerError }: LandingRouteDeps) {
  // Made on first use: the OpenAPI description builds these routes without settings.
  let perIp: RateLimiter | undefined;
  let codeFailures: RateLimiter | undefined;
  let feedbackPerVisitor: RateLimiter | undefined;

  /** The page's agent and the visitor; a new visitor gets their cookie with this response. */
  async function visit(ctx: Context, slug: string): Promise<{ agent: PublishedAgent; visitor: Visitor }> {
    const agent = await landing.agent(slug);
    const visitor = readVisitor(cookieKey, slug, ctx.cookies.get(VISITOR_COOKIE));
    if (visitor.fresh) ctx.append('set-cookie', visitorCookie(cookieKey, slug, visitor, secureContext(ctx)));
    return { agent, visitor };
  }

  /** Messages a minute per address (the one the proxy in front saw), as the contract names the refusal (`rate_limited`), with retry-after. */
  function limitIp(ctx: Context) {
    perIp ??= createRateLimiter(messagesPerMinutePerIp);
    limited(perIp, `ip:${clientAddress(ctx, trustProxy)}`, 'rate_limited', `At most ${messagesPerMinutePerIp} messages a minute`);
  }

  /**
   * Whether the visitor may talk (landing.admit). A code given counts against the agent's budget of
   * wrong codes before it is compared (so parallel guesses cannot all slip in before the first
   * fails), and is given back when right: guessing from many addresses meets one limit per agent.
   */
  async function admit(agent: PublishedAgent, visitor: Visitor, code: string | undefined) {
    codeFailures ??= createRateLimiter(codeFailuresPerMinute);
    const guess = code !== undefined && !landing.admitted(agent, visitor.granted);
    if (guess) limited(codeFailures, `agent:${agent.id}`, 'access_code_attempts_exceeded', `This assistant takes at most ${codeFailuresPerMinute} wrong access codes a minute`);
    const granted = await landing.admit(agent, visitor.granted, code);
    if (guess && codeFailures.enabled) codeFailures.refund(`agent:${agent.id}`);
    return granted;
  }

  function limitFeedback(agent: PublishedAgent, visitor: Visitor) {
    feedbackPerVisitor ??= createRateLimiter(FEEDBACK_PER_MINUTE);
    limited(feedbackPerVisitor, `${agent.id}:${visitor.id}`, 'rate_limited', `At most ${FEEDBACK_PER_MINUTE} ratings a minute`);
  }

  return [
    route({
      method: 'get',
      path: '/a/:slug',
      summary: 'A published agent’s landing page (HTML)',
      tag,
      scope: 'public',
      mediaType: 'text/html',
      handle: async ({ params }) => {
        const agent = await landing.agent(params.slug);
        const nonce = randomBytes(16).toString('base64');
        return { headers: landingPageHeaders(nonce, agent.published.config.public.allowed_origins), body: renderLandingPage(landing.view(agent), { nonce }) };
      },
    }),
    route({
      method: 'post',
      path: '/a/:slug/chat',
      summary: 'Talk to the published agent: chat completion (or its chunk stream) with public citations',
      tag,
      scope: 'public',
      load: 'landing',
      loadPartition: bySlug,
      body: LandingChatBody,
      maxBodyBytes: LANDING_MAX_BODY_BYTES,
      response: LandingChatCompletion,
      eventStream: 'With `stream: true`: `chat.completion.chunk` objects; the one with the finish reason carries `citations` (public shape: the passages the answer cites), every one the message id; then `data: [DONE]`.',
      handle: async ({ ctx, params, body, requestId }) => {
        limitIp(ctx);
        const { agent, visitor } = await visit(ctx, params.slug);
        const granted = await admit(agent, visitor, body.access_code);
        if (granted !== visitor.granted) ctx.append('set-cookie', visitorCookie(cookieKey, params.slug, { id: visitor.id, granted }, secureContext(ctx)));
        landing.count(agent, visitor.id);
        const abort = abortOnDisconnect(ctx);
        const question = body.messages.at(-1)!.content;
        const prepared = await landing.prepare(agent, visitor.id, body.messages, body.stream ?? false, abort.signal);
        const present = (citations: Parameters<typeof publicCitation>[1][]) => citations.map((c) => publicCitation(params.slug, c));
        const record = (outcome: Parameters<typeof prepared.record>[0]) => landing.record(agent, visitor.id, question, prepared, outcome).catch((error: unknown) => onServerError(error, requestId));
        if (body.stream) {
          const stream = openEventStream(ctx, { onServerError: (error) => onServerError(error, requestId) });
          streamLandingChat(prepared, stream, present, (outcome) => void record(outcome));
          return stream.reply;
        }
        const outcome = await prepared.complete(abort.signal);
        await record(outcome);
        return {
          body: {
            id: prepared.id,
            object: 'chat.completion',
            created: prepared.created,
            model: prepared.model,
            choices: [{ index: 0, message: { role: 'assistant', content: outcome.content }, finish_reason: outcome.finishReason }],
            citations: present(prepared.cite(outcome.content)),
          },
        };
      },
    }),
    route({
      method: 'get',
      path: '/a/:slug/pages/:document_id/:n',
      summary: 'A page cited in this visitor’s conversation, as PNG with the passage highlighted',
      tag,
      scope: 'public',
      load: 'landing',
      loadPartition: bySlug,
      query: LandingPageImageQuery,
      mediaType: 'image/png',
      handle: async ({ ctx, params, query }) => {
        const page = /^[1-9]\d{0,5}$/.test(params.n) ? Number(params.n) : NaN;
        if (!Number.isInteger(page)) throw badRequest('invalid_page', 'page must be a page number from 1.', 'n');
        const { agent, visitor } = await visit(ctx, params.slug);
        landing.requireAdmitted(agent, visitor.granted);
        const image = await landing.pageImage(agent, visitor.id, params.document_id, page, query);
        return { headers: { 'content-type': 'image/png', 'cache-control': 'private, max-age=300' }, body: Buffer.from(image.png) };
      },
    }),
    route({
      method: 'post',
      path: '/a/:slug/feedback',
      summary: 'Rate an answer of this visitor’s conversation',
      tag,
      scope: 'public',
      body: LandingFeedbackBody,
      maxBodyBytes: LANDING_MAX_BODY_BYTES,
      status: 204,
      handle: async ({ ctx, params, body }) => {
        const { agent, visitor } = await visit(ctx, params.slug);
        landing.requireAdmitted(agent, visitor.granted);
        limitFeedback(agent, visitor);
        await landing.feedback(agent, visitor.id, body);
        return { status: 204, body: null };
      },
    }),
    route({
      method: 'get',
      path: '/a/:slug/history',
      summary: 'This visitor’s conversation with the agent',
      tag,
      scope: 'public',
      response: LandingHistory,
      handle: async ({ ctx, params }) => {
        const { agent, visitor } = await visit(ctx, params.slug);
        landing.requireAdmitted(agent, visitor.granted);
        return { body: await landing.history(agent, visitor.id) };
      },
    }),
  ];
}

/** A 429 in the landing pages' words (`code`, what the limit is) with retry-after, when `key`'s bucket is empty. */
function limited(limiter: RateLimiter, key: string, code: string, limit: string) {
  if (!limiter.enabled) return;
  try {
    limiter.check(key);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const retryAfter = error.headers['retry-after']!;
    throw new ApiError(429, 'rate_limit_error', code, `${limit}; retry after ${retryAfter} s.`, { headers: { 'retry-after': retryAfter } });
  }
}
