import { Stream } from 'node:stream';
import Koa, { type Context, type Middleware } from 'koa';
import type { Logger } from 'pino';
import { ApiError } from '../ports/api-error.ts';
import type { Authenticator } from '../app/services/api-keys.ts';
import type { ConsoleSessions } from '../app/services/console-sessions.ts';
import { requireScope } from '../app/services/principal.ts';
import type { AuthFailureLimiter } from './auth-failures.ts';
import { authenticateRequest } from './auth.ts';
import { type BodyPace, type JsonReader, jsonReader } from './body.ts';
import { abortOnDisconnect } from './client-abort.ts';
import { cors } from './cors.ts';
import { envelope } from './envelope.ts';
import type { LoadClass, LoadShedder, Release } from './load-shedding.ts';
import type { Metrics } from './metrics.ts';
import { buildOpenApi } from './openapi.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { Reply, RouteSpec } from './route.ts';
import { createRouteTable } from './route-table.ts';
import { operationRoutes, type ReadinessCheck } from './routes/operations.ts';
import { parseOr400 } from './validate.ts';

export type AppDeps = {
  /** Every /v1 route and /mcp, as the capabilities build them (src/capabilities/index.ts). */
  routes: RouteSpec[];
  authenticator: Authenticator;
  /** The console's sessions: /v1 requests may then authenticate by its cookie (auth.ts). */
  consoleSessions?: ConsoleSessions;
  metrics: Metrics;
  rateLimiter: RateLimiter;
  /** Wrong API keys per client address and key prefix (KBQA_AUTH_FAILURES_PER_MINUTE); absent, none are limited. */
  authFailures?: AuthFailureLimiter;
  maxJsonBytes: number;
  /** How fast a JSON body must arrive (body.ts). */
  bodyPace: BodyPace;
  /** Slots for the routes that declare a `load` class. */
  loadShedder: LoadShedder;
  readiness: ReadinessCheck;
  version: string;
  onServerError: (error: unknown, requestId: string) => void;
  /** Where the access lines go (envelope.ts); without one there are none. */
  logger?: Logger;
  /** A page for a browser request no route answers (the console's deep links), or undefined for the 404. */
  pageFallback?: (ctx: Context) => Reply | undefined;
  /** Browser origins CORS allows (`*`: any); empty or absent, CORS is off. */
  corsOrigins?: readonly string[];
};

/**
 * The OpenAPI document `GET /v1/openapi.json` serves, for the routes given and the operations
 * routes: built without a runtime for `npm run lint:openapi` (see src/capabilities/describe-api.ts).
 */
export function describeRoutes(routes: RouteSpec[], version: string, unused: unknown) {
  const all = [...routes, ...operationRoutes({ metrics: unused as Metrics, readiness: {}, openApi: unused as () => unknown, version })];
  return buildOpenApi(all, version);
}

export function createApp(deps: AppDeps): Koa {
  let openApi: unknown;
  const routes: RouteSpec[] = [
    ...deps.routes,
    ...operationRoutes({ metrics: deps.metrics, readiness: deps.readiness, openApi: (): unknown => (openApi ??= buildOpenApi(routes, deps.version)), version: deps.version }),
  ];
  const readJson = jsonReader(deps.maxJsonBytes, deps.bodyPace);
  const table = createRouteTable(routes, (ctx, spec, params) => dispatch(ctx, spec, params, deps, readJson), (ctx, allowed) => {
    const page = allowed.length === 0 ? deps.pageFallback?.(ctx) : undefined;
    if (page) {
      ctx.status = page.status ?? 200;
      if (page.headers) ctx.set(page.headers);
      ctx.body = page.body;
      return;
    }
    if (allowed.length === 0) throw new ApiError(404, 'not_found_error', 'route_not_found', `No route for ${ctx.method} ${ctx.path}.`);
    throw new ApiError(405, 'invalid_request_error', 'method_not_allowed', `Use ${allowed.join(', ')} on ${ctx.path}.`, { headers: { allow: allowed.join(', ') } });
  });

  const app = new Koa();
  app.proxy = true;
  onStreamError(app, deps);
  app.use(envelope(deps.metrics, deps.onServerError, deps.logger));
  app.use(closeIfBodyUnread);
  // Before routing and authentication: a preflight carries no key and OPTIONS is no route's method.
  if (deps.corsOrigins?.length) app.use(cors(deps.corsOrigins, table.templateOf));
  app.use(table.middleware);
  return app;
}

/** A process that serves no API (relay, worker, projector) still answers its operators. */
export function createOperationsApp(deps: Pick<AppDeps, 'metrics' | 'readiness' | 'version' | 'onServerError' | 'logger'>): Koa {
  const routes: RouteSpec[] = operationRoutes({ metrics: deps.metrics, readiness: deps.readiness, openApi: () => buildOpenApi(routes, deps.version), version: deps.version });
  const table = createRouteTable(
    routes,
    async (ctx, spec, params) => {
      const reply = await spec.handle({ ctx, principal: null!, body: undefined, query: {}, params, requestId: ctx.state.requestId as string });
      ctx.status = reply.status ?? 200;
      if (reply.headers) ctx.set(reply.headers);
      ctx.body = reply.body;
    },
    (ctx) => {
      throw new ApiError(404, 'not_found_error', 'route_not_found', `No route for ${ctx.method} ${ctx.path} in this process; the API is served by the api role.`);
    },
  );
  const app = new Koa();
  onStreamError(app, deps);
  app.use(envelope(deps.metrics, deps.onServerError, deps.logger));
  app.use(table.middleware);
  return app;
}

const DISCONNECTED = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE']);

/**
 * Koa reports failures while piping a streamed body here. A client that left mid-stream is not
 * one: the envelope's access line already records it (`aborted`, at info), this only adds the code
 * at debug. Anything else is a server error, with the stack and the request's id.
 */
function onStreamError(app: Koa, deps: Pick<AppDeps, 'onServerError' | 'logger'>) {
  app.on('error', (error: NodeJS.ErrnoException, ctx?: Context) => {
    const requestId = (ctx?.state.requestId as string | undefined) ?? 'stream';
    if (error.code && DISCONNECTED.has(error.code)) return deps.logger?.debug({ requestId, code: error.code }, 'client disconnected mid-response');
    deps.onServerError(error, requestId);
  });
}

async function dispatch(ctx: Context, spec: RouteSpec, params: Record<string, string>, deps: AppDeps, readJson: JsonReader) {
  let principal = null;
  if (spec.scope !== 'public') {
    principal = await authenticateRequest(ctx, deps);
    // For the access line: which key, never its secret.
    ctx.state.keyId = principal.keyId;
    if (deps.rateLimiter.enabled) ctx.set(deps.rateLimiter.check(principal.keyId));
    requireScope(principal, spec.scope);
  }
  // Refused before its body is read when its class is full: under overload refusals are most of the traffic.
  if (spec.load) deps.loadShedder.ensureRoom(spec.load);
  const query = spec.query ? parseOr400(spec.query, ctx.query) : {};
  const body = spec.body ? parseOr400(spec.body, await (spec.maxBodyBytes ? readerOf(spec.maxBodyBytes, deps.bodyPace) : readJson)(ctx)) : undefined;
  // Only now, authenticated and with the body read: an unauthenticated flood or a slow body holds no slot.
  const release = spec.load ? await takeSlot(ctx, spec.load, deps.loadShedder) : null;
  let reply: Reply;
  try {
    reply = await spec.handle({ ctx, principal: principal!, body, query, params, requestId: ctx.state.requestId as string });
  } catch (error) {
    release?.();
    throw error;
  }
  ctx.status = reply.status ?? 200;
  if (reply.headers) ctx.set(reply.headers);
  ctx.body = reply.body;
  if (release) holdUntilOver(ctx, reply.body, release);
}

const readers = new Map<string, JsonReader>();
/** One reader per tighter body limit a route declares (and pace, which is the deployment's). */
function readerOf(limit: number, pace: BodyPace): JsonReader {
  const key = `${limit}:${pace.baseMs}:${pace.minBytesPerSecond}`;
  let reader = readers.get(key);
  if (!reader) readers.set(key, (reader = jsonReader(limit, pace)));
  return reader;
}

/** A slot of the route's class; a client that leaves while waiting for one gives up its place. */
function takeSlot(ctx: Context, load: LoadClass, shedder: LoadShedder): Promise<Release> {
  const left = abortOnDisconnect(ctx);
  if (ctx.req.socket.destroyed) left.abort();
  return shedder.acquire(load, left.signal);
}

/** A streamed reply keeps its slot until the response is over (sent, or its client gone); any other is written at once. */
function holdUntilOver(ctx: Context, body: unknown, release: Release) {
  if (!(body instanceof Stream) || ctx.res.writableFinished || ctx.req.socket.destroyed) return release();
  ctx.res.once('close', release);
}

/**
 * A request whose body was not read (refused before it, or a route that takes none) and has not
 * all arrived closes its connection after the response: the rest would otherwise be read and
 * dropped at whatever pace the client chooses, with nothing timing it. A body that has all
 * arrived (`complete` may lag behind the bytes by a callback) keeps the connection alive.
 */
const closeIfBodyUnread: Middleware = async (ctx, next) => {
  try {
    await next();
  } finally {
    const { req } = ctx;
    const declared = req.headers['content-length'];
    if (!req.complete && !(declared !== undefined && req.readableLength >= Number(declared))) ctx.set('connection', 'close');
  }
};
