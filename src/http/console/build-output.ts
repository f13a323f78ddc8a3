import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** Where `npm run build:console` (run by `prepare` on `npm ci`) writes the console: web/console/vite.config.ts. */
export const CONSOLE_DIST = fileURLToPath(new URL('../../../dist/console/', import.meta.url));

export type ConsoleFile = { name: string; type: string; body: Buffer; gzip: Buffer; etag: string };
export type ConsoleBuild = { index: ConsoleFile; assets: ReadonlyMap<string, ConsoleFile> } | null;

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

function file(path: string, name: string): ConsoleFile {
  const body = readFileSync(path);
  return { name, type: TYPES[extname(name)] ?? 'application/octet-stream', body, gzip: gzipSync(body, { level: 9 }), etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
}

/**
 * The console's built files, read once into memory with their gzip and ETag (a few hundred KB):
 * null when it was not built (an install with `--ignore-scripts`, or `--omit=dev`), which `/` then says.
 */
export function readConsoleBuild(dir = CONSOLE_DIST): ConsoleBuild {
  // A build replacing the files while the server starts (`npm run build:console` beside it) empties
  // the folder first: a file listed may be gone when read. Read again once the build has had a moment.
  for (let attempt = 1; ; attempt++) {
    try {
      return readOnce(dir);
    } catch (error) {
      if (!isMissingFile(error) || attempt >= REREADS) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
}

const REREADS = 40;

const isMissingFile = (error: unknown) => error instanceof Error && 'code' in error && error.code === 'ENOENT';

function readOnce(dir: string): ConsoleBuild {
  const indexPath = join(dir, 'index.html');
  if (!existsSync(indexPath)) return null;
  const assetsDir = join(dir, 'assets', 'console');
  const assets = new Map<string, ConsoleFile>();
  if (existsSync(assetsDir)) for (const name of readdirSync(assetsDir)) assets.set(name, file(join(assetsDir, name), name));
  return { index: file(indexPath, 'index.html'), assets };
}
