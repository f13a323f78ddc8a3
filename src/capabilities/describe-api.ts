import { describeRoutes } from '../http/app.ts';
import type { RouteSpec } from '../http/route.ts';
import type { ApiDeps, Capability } from './capability.ts';
import { apiRoutes } from './index.ts';

/**
 * The OpenAPI document `GET /v1/openapi.json` serves, built from the same route table without a
 * runtime (for `npm run lint:openapi` and the SDK's generated types): the handlers are never
 * called, so no dependency is needed.
 */
export function describeApi(version: string) {
  const unused = descriptionOnly();
  const deps: ApiDeps = { services: unused, settings: unused };
  return describeRoutes(apiRoutes(deps), version, unused);
}

/** One capability's routes, built the same way, only to be read (which routes it has). */
export function routesOf(capability: Capability): RouteSpec[] {
  const unused = descriptionOnly();
  return capability.routes?.({ services: unused, settings: unused }) ?? [];
}

/** Stands in for every dependency of a table built only to be described: reading works, any call throws. */
function descriptionOnly(): any {
  const stub: any = new Proxy(() => {}, {
    get: (_target, key) => (key === 'then' || typeof key === 'symbol' ? undefined : stub),
    apply: () => {
      throw new Error('a route of the description-only table was called');
    },
  });
  return stub;
}
