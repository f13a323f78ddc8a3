import type { Context } from 'koa';
import { ApiError } from '../../ports/api-error.ts';
import { route, type RouteSpec } from '../route.ts';
import { type Asset, landingBundle } from './bundle.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
// embed.js keeps its name across releases (other sites link it): cached briefly, revalidated by ETag.
const SHORT = 'public, max-age=300';

/**
 * `GET /assets/landing/{file}`: the landing page's script and style (capability `landing-page`). Calling
 * this builds the bundle (bundle.ts), so a server whose page cannot build fails at start, not at its
 * first visitor.
 */
export function landingAssetRoutes(): RouteSpec[] {
  const { files } = landingBundle();
  return [
    route({
      method: 'get',
      path: '/assets/landing/:file',
      summary: "The landing page's script and style, and the embed script",
      tag: 'landing',
      scope: 'public',
      operationId: 'getLandingPageAsset',
      // Also text/css for the style; OpenAPI describes the script, the common case.
      mediaType: 'text/javascript',
      handle: ({ ctx, params }) => {
        const file = files.get(params.file);
        if (!file) throw new ApiError(404, 'not_found_error', 'asset_not_found', `No landing-page asset ${params.file}.`);
        return serve(ctx, file);
      },
    }),
  ];
}

function serve(ctx: Context, file: Asset) {
  const headers: Record<string, string> = {
    'content-type': file.type,
    'cache-control': file.name === 'embed.js' ? SHORT : IMMUTABLE,
    etag: file.etag,
    vary: 'accept-encoding',
    'x-content-type-options': 'nosniff',
    // The embed script is loaded by other origins' pages; the page's own files need not be.
    'cross-origin-resource-policy': file.name === 'embed.js' ? 'cross-origin' : 'same-origin',
  };
  if (ctx.get('if-none-match') === file.etag) return { status: 304, body: null, headers };
  if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') return { body: file.gzip, headers: { ...headers, 'content-encoding': 'gzip' } };
  return { body: file.body, headers };
}
