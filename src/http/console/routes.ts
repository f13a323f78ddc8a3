import type { Context } from 'koa';
import { ApiError } from '../../ports/api-error.ts';
import type { Reply } from '../route.ts';
import { route, type RouteSpec } from '../route.ts';
import type { ConsoleBuild, ConsoleFile } from './build-output.ts';
import { FAVICON_HEADERS, FAVICON_SVG } from './favicon.ts';
import { CONSOLE_PAGE_HEADERS, IMMUTABLE } from './headers.ts';

const notBuilt = () =>
  new ApiError(503, 'server_error', 'console_not_built', 'The console is not built in this installation: run `npm run build:console` (npm ci does it), then restart.');

/**
 * Paths the console's router owns (web/console/src/routes.tsx): a browser that opens or reloads one
 * gets the console's page, whose script shows the screen. The API's own paths are never among them.
 */
const CONSOLE_PATHS = /^\/(sign-in|knowledge-bases|chat|workflows|agents|models|api-keys)(\/|$)/;

/** `GET /` and the console's files (capability `console`); `consolePageFor` answers its deep links. */
export function consoleRoutes(build: ConsoleBuild): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/',
      summary: 'The console: a single-page app over this API (docs/console.md); 503 console_not_built when the installation has no build of it',
      tag: 'console',
      scope: 'public',
      mediaType: 'text/html',
      operationId: 'getConsole',
      handle: ({ ctx }) => page(ctx, build),
    }),
    route({
      method: 'get',
      path: '/assets/console/:file',
      summary: "The console's scripts and styles, named by their content's hash and cached for a year",
      tag: 'console',
      scope: 'public',
      mediaType: 'text/javascript',
      operationId: 'getConsoleAsset',
      handle: ({ ctx, params }) => {
        const found = build?.assets.get(params.file);
        if (!found) throw new ApiError(404, 'not_found_error', 'asset_not_found', `No console asset ${params.file}.`);
        return serve(ctx, found, { 'cache-control': IMMUTABLE, 'x-content-type-options': 'nosniff', 'cross-origin-resource-policy': 'same-origin' });
      },
    }),
    route({
      method: 'get',
      path: '/favicon.ico',
      summary: "The site's icon (an SVG), for the console's and the landing pages' tabs",
      tag: 'console',
      scope: 'public',
      mediaType: 'image/svg+xml',
      operationId: 'getFavicon',
      handle: () => ({ body: FAVICON_SVG, headers: FAVICON_HEADERS }),
    }),
  ];
}

/**
 * The console's page for a browser opening one of its deep links (`/knowledge-bases/kb_1/retrieval`),
 * or undefined: not a GET of a console path from a browser (a JSON client still gets its 404).
 */
export function consolePageFor(build: ConsoleBuild) {
  return (ctx: Context): Reply | undefined => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return undefined;
    if (!CONSOLE_PATHS.test(ctx.path) || ctx.accepts('json', 'html') !== 'html') return undefined;
    return page(ctx, build);
  };
}

function page(ctx: Context, build: ConsoleBuild): Reply {
  if (!build) throw notBuilt();
  return serve(ctx, build.index, CONSOLE_PAGE_HEADERS);
}

function serve(ctx: Context, file: ConsoleFile, headers: Record<string, string>): Reply {
  const all = { ...headers, 'content-type': file.type, etag: file.etag, vary: 'accept-encoding' };
  if (ctx.get('if-none-match') === file.etag) return { status: 304, body: null, headers: all };
  if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') return { body: file.gzip, headers: { ...all, 'content-encoding': 'gzip' } };
  return { body: file.body, headers: all };
}
