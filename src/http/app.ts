import Router, { type RouterMiddleware } from '@koa/router';
import Koa from 'koa';
import { ApiError } from '../app/errors.ts';
import type { AppContext } from '../app/context.ts';
import { authenticate } from '../app/services/api-keys.ts';
import type { KnowledgeBaseService } from '../app/services/knowledge-bases.ts';
import type { ModelCatalog } from '../app/services/models.ts';
import { requireScope } from '../app/services/principal.ts';
import { bearerToken } from './auth.ts';
import { readJson } from './body.ts';
import { errorMiddleware } from './errors.ts';
import type { Metrics } from './metrics.ts';
import { buildOpenApi } from './openapi.ts';
import type { RateLimiter } from './rate-limit.ts';
import { requestId } from './request-id.ts';
import type { RouteSpec } from './route.ts';
import { apiKeyRoutes } from './routes/api-keys.ts';
import { knowledgeBaseRoutes } from './routes/knowledge-bases.ts';
import { modelRoutes } from './routes/models.ts';
import { operationRoutes, type ReadinessCheck } from './routes/operations.ts';
import { parseOr400 } from './validate.ts';

export type AppDeps = {
  ctx: AppContext;
  models: ModelCatalog;
  knowledgeBases: KnowledgeBaseService;
  metrics: Metrics;
  rateLimiter: RateLimiter;
  maxJsonBytes: number;
  readiness: ReadinessCheck;
  version: string;
  onServerError: (error: unknown, requestId: string) => void;
};

export function createApp(deps: AppDeps): Koa {
  const routes: RouteSpec[] = [...modelRoutes(deps.models), ...apiKeyRoutes(deps.ctx), ...knowledgeBaseRoutes(deps.knowledgeBases)];
  const router = new Router();
  for (const spec of routes) router[spec.method](spec.path, handlerFor(spec, deps));
  operationRoutes(router, { metrics: deps.metrics, readiness: deps.readiness, openApi: buildOpenApi(routes, deps.version) });

  const app = new Koa();
  app.proxy = true;
  app.use(requestId);
  app.use(deps.metrics.middleware);
  app.use(errorMiddleware(deps.onServerError));
  app.use(router.routes());
  app.use(
    router.allowedMethods({
      throw: true,
      methodNotAllowed: () => new ApiError(405, 'invalid_request_error', 'method_not_allowed', 'This method is not allowed on this path.'),
      notImplemented: () => new ApiError(501, 'invalid_request_error', 'not_implemented', 'This method is not implemented.'),
    }),
  );
  return app;
}

function handlerFor(spec: RouteSpec, deps: AppDeps): RouterMiddleware {
  return async (ctx) => {
    const requestId = ctx.state.requestId as string;
    let principal = null;
    if (spec.scope !== 'public') {
      principal = await authenticate(deps.ctx, bearerToken(ctx));
      if (deps.rateLimiter.enabled) ctx.set(deps.rateLimiter.check(principal.keyId));
      requireScope(principal, spec.scope);
    }
    const query = spec.query ? parseOr400(spec.query, ctx.query) : {};
    const body = spec.body ? parseOr400(spec.body, await readJson(ctx, deps.maxJsonBytes)) : undefined;
    const reply = await spec.handle({ ctx, principal: principal!, body, query, params: ctx.params, requestId });
    ctx.status = reply.status ?? 200;
    if (reply.headers) ctx.set(reply.headers);
    ctx.body = reply.body;
  };
}
