import Router, { type RouterContext } from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { RouteSpec } from './route.ts';

/** What runs a matched route: its spec and the decoded path parameters. */
export type Dispatch = (ctx: Context, spec: RouteSpec, params: Record<string, string>) => Promise<void>;

/** What answers a request no route serves: `allowed` lists the methods of the routes on that path (empty: none). */
export type Unmatched = (ctx: Context, allowed: string[]) => void | Promise<void>;

/**
 * The route table on @koa/router: each spec is registered under its method and path template
 * (GET routes answer HEAD too), and its handler names the route (`ctx.state.route`, the template
 * the metrics and access lines use) before `dispatch` runs it. A request no route serves goes to
 * `unmatched`, with the methods the router found for its path.
 */
export function createRouteTable(routes: readonly RouteSpec[], dispatch: Dispatch, unmatched: Unmatched) {
  // Case-sensitive like the ids in the paths; a trailing slash is tolerated.
  const router = new Router({ sensitive: true });
  for (const spec of routes) {
    router.register(spec.path, [spec.method], (ctx: RouterContext) => {
      ctx.state.route = spec.path;
      return dispatch(ctx, spec, ctx.params);
    });
  }
  const routed = router.routes() as Middleware;
  // The router calls on when no route serves the method on the path; what it matched by path alone is in `matched`.
  const middleware: Middleware = (ctx) => routed(ctx, () => Promise.resolve(unmatched(ctx, methodsOf((ctx as RouterContext).matched ?? []))));
  return {
    middleware,
    /** The template of the route that serves `method` on `path`, or null (a CORS preflight names the route it asks about). */
    templateOf(method: string, path: string): string | null {
      const layer = router.match(path, method).pathAndMethod.find((l) => l.methods.length > 0);
      return typeof layer?.path === 'string' ? layer.path : null;
    },
  };
}

/** The methods of the layers, HEAD (which the router adds to every GET route) last. */
function methodsOf(layers: readonly { methods: string[] }[]): string[] {
  const methods = new Set(layers.flatMap((l) => l.methods));
  return methods.delete('HEAD') ? [...methods, 'HEAD'] : [...methods];
}
