import { ApiIndex, Health, OpenApiDocument, Readiness } from '../../../schemas/http/operations.ts';
import type { Metrics } from '../metrics.ts';
import { route, type RouteSpec } from '../route.ts';

/** Each check resolves when its dependency answers and rejects with the reason otherwise. */
export type ReadinessCheck = Record<string, () => Promise<void>>;

const OPENAPI_PATH = '/v1/openapi.json';

/** Unauthenticated operational endpoints, outside /v1 (except the API description). */
export function operationRoutes(deps: { metrics: Metrics; readiness: ReadinessCheck; openApi: () => unknown; version: string }): RouteSpec[] {
  const tag = 'operations';
  return [
    route({ method: 'get', path: '/healthz', summary: 'Liveness', operationId: 'checkLiveness', tag, scope: 'public', response: Health, handle: () => ({ body: { status: 'ok' } }) }),
    route({
      method: 'get',
      path: '/readyz',
      summary: 'Readiness: every dependency answers (503 otherwise)',
      operationId: 'checkReadiness',
      tag,
      scope: 'public',
      response: Readiness,
      otherStatuses: { 503: 'Not ready: the checks say which dependency does not answer, and why.' },
      handle: async () => {
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
        return { status: ready ? 200 : 503, body: { status: ready ? 'ready' : 'not_ready', checks: Object.fromEntries(entries) } };
      },
    }),
    route({
      method: 'get',
      path: '/metrics',
      summary: 'Prometheus metrics',
      operationId: 'getMetrics',
      tag,
      scope: 'public',
      mediaType: 'text/plain',
      handle: async () => ({ headers: { 'content-type': deps.metrics.contentType }, body: await deps.metrics.render() }),
    }),
    route({
      method: 'get',
      path: '/v1',
      summary: 'This API: its version and where its OpenAPI document is',
      operationId: 'getApiIndex',
      tag,
      scope: 'public',
      response: ApiIndex,
      handle: () => ({ body: { object: 'api', version: deps.version, openapi_url: OPENAPI_PATH } }),
    }),
    route({
      method: 'get',
      path: OPENAPI_PATH,
      summary: 'This API, described (OpenAPI 3.1)',
      operationId: 'getOpenApiDocument',
      tag,
      scope: 'public',
      response: OpenApiDocument,
      handle: () => ({ body: deps.openApi() }),
    }),
  ];
}
