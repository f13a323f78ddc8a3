import { build, stop } from 'esbuild';

const THREAD = new URL('./thread.ts', import.meta.url);
let built: Promise<URL> | undefined;

/**
 * The sandbox thread's code as one data: URL a Worker can start. Node 20 applies no loader hooks
 * (tsx) inside worker threads, so the TypeScript is compiled here, once per process (esbuild, the
 * compiler tsx itself runs; tens of milliseconds), into memory: nothing is written, so a read-only
 * install works. Packages stay outside the bundle, their imports resolved here to the files Node
 * would load (the WASM engine finds its .wasm beside its own module).
 */
export function sandboxThreadUrl(): Promise<URL> {
  built ??= compile().catch(() => compile()); // A second try: another module's esbuild stop() can end a build in flight.
  built.catch(() => (built = undefined));
  return built;
}

async function compile(): Promise<URL> {
  const result = await build({
    entryPoints: [decodeURIComponent(THREAD.pathname)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
    plugins: [
      {
        name: 'packages-by-url',
        setup(on) {
          on.onResolve({ filter: /^[^./]/ }, ({ path }) => ({ path: path.startsWith('node:') ? path : import.meta.resolve(path), external: true }));
        },
      },
    ],
  }).finally(() => {
    // esbuild's service process would otherwise stay for the server's life (25 MB resident): this runs once.
    void stop();
  });
  return new URL(`data:text/javascript;base64,${Buffer.from(result.outputFiles[0]!.contents).toString('base64')}`);
}
