import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildSync, stop } from 'esbuild';

const WEB = fileURLToPath(new URL('../../../web/landing/', import.meta.url));

export type Asset = { name: string; type: string; body: Buffer; gzip: Buffer; etag: string };
export type LandingBundle = {
  /** By the name the page and the embed snippet use: `main-3F2A….js`, `style-….css`, `embed.js`. */
  files: ReadonlyMap<string, Asset>;
  script: string;
  style: string;
};

let bundle: LandingBundle | undefined;

/**
 * The landing page's script and style, built from web/landing/ in memory by esbuild on first use
 * (the server's first start of the page, or landingAssetRoutes() at route assembly) and kept for
 * the process's life. Built at start rather than ahead: the service ships TypeScript run by tsx
 * with no build step (Dockerfile), so a prebuilt bundle would be one more artefact to go stale or
 * missing; esbuild is a runtime dependency already (parser-bundle.ts) and the build takes tens of
 * milliseconds. Its output depends on the sources and esbuild's version only, so every replica
 * serves the same hashed names. A broken source fails here, loudly, with esbuild's message.
 */
export function landingBundle(): LandingBundle {
  return (bundle ??= build());
}

function build(): LandingBundle {
  const result = buildSync({
    entryPoints: { main: join(WEB, 'main.ts'), embed: join(WEB, 'embed.ts'), style: join(WEB, 'style.css') },
    bundle: true,
    minify: true,
    // A classic script: the embed runs on other sites' pages, where document.currentScript must work.
    format: 'iife',
    target: ['chrome109', 'firefox115', 'safari15.4'],
    entryNames: '[name]-[hash]',
    outdir: '/landing',
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  // buildSync runs esbuild in a worker thread with a service process of its own, kept for the
  // process's life unless stopped: 15 MB resident in the service and a thread's heap in ours, for
  // a build made once (issue 43 item 16). A later sync call starts a new one; the async service
  // stops too, and is started again by its next call (parser-bundle.ts builds once, later).
  void stop();
  const files = new Map<string, Asset>();
  for (const output of result.outputFiles) {
    const name = output.path.slice(output.path.lastIndexOf('/') + 1);
    files.set(name, asset(name, Buffer.from(output.contents)));
  }
  const named = (prefix: string, ext: string) => [...files.keys()].find((n) => n.startsWith(`${prefix}-`) && n.endsWith(ext))!;
  const embed = files.get(named('embed', '.js'))!;
  // The embed snippet names it without a hash: pages that paste it cannot follow our releases.
  files.set('embed.js', { ...embed, name: 'embed.js' });
  return { files, script: named('main', '.js'), style: named('style', '.css') };
}

function asset(name: string, body: Buffer): Asset {
  const type = name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
  return { name, type, body, gzip: gzipSync(body, { level: 9 }), etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
}
