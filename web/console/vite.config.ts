import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The console's build (`npm run build:console`, run by `prepare` on `npm ci`): dist/console, which
 * the server reads at start (src/http/console/). Files under /assets/console/ carry a content hash
 * in their names, so the server caches them for a year; index.html is never cached.
 */
export default defineConfig({
  root: here('.'),
  base: '/',
  plugins: [react()],
  build: {
    outDir: here('../../dist/console'),
    emptyOutDir: true,
    assetsDir: 'assets/console',
    // No inline scripts or styles: the page's CSP allows neither.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2022',
    reportCompressedSize: false,
  },
  server: {
    // `npm run dev:console`: the console's sources with hot reload, the API from a running `npm start`.
    proxy: Object.fromEntries(['/v1', '/console/session', '/a', '/assets/landing'].map((p) => [p, process.env.KBQA_URL ?? 'http://localhost:2678'])),
  },
});
