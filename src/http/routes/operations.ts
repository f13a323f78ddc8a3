import type Router from '@koa/router';
import type { Metrics } from '../metrics.ts';

/** Each check resolves when its dependency answers and rejects with the reason otherwise. */
export type ReadinessCheck = Record<string, () => Promise<void>>;

/** Unauthenticated operational endpoints, outside /v1 (except the API description). */
export function operationRoutes(router: Router, deps: { metrics: Metrics; readiness: ReadinessCheck; openApi: unknown }) {
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const entries = await Promise.all(
      Object.entries(deps.readiness).map(async ([name, check]) => {
        try {
          await check();
          return [name, 'ok'] as const;
        } catch (error) {
          return [name, error instanceof Error ? error.message : 'unavailable'] as const;
        }
      }),
    );
    const ready = entries.every(([, state]) => state === 'ok');
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ready' : 'not_ready', checks: Object.fromEntries(entries) };
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = deps.metrics.registry.contentType;
    ctx.body = await deps.metrics.registry.metrics();
  });
  router.get('/v1/openapi.json', (ctx) => {
    ctx.body = deps.openApi;
  });
}
