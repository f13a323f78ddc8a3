import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { CONSOLE_DIST } from '../../src/http/console/build-output.ts';

const ROUTES = fileURLToPath(new URL('../../web/console/src/routes.tsx', import.meta.url));

/** A built file of the console and its size as the server sends it (gzip level 9, src/http/console/build-output.ts). */
export type Chunk = { name: string; gz: number };

/** A screen of routes.tsx, loaded on first visit: its own chunk and what that chunk adds to the initial JavaScript. */
export type ScreenChunk = { module: string; chunk: string | undefined; gz: number; added_gz: number };

export type ConsoleBundle = {
  /** What index.html loads before any interaction: its module script, its modulepreloads and all they import statically. */
  initial: Chunk[];
  initial_js_gz: number;
  initial_css_gz: number;
  screens: ScreenChunk[];
};

const ASSET = /^\/assets\/console\/([^"'?#]+)$/;

/**
 * Static imports of a built chunk (`import{a as b}from"./x.js"`, `import"./x.js"`), not its dynamic
 * `import("./x.js")`: a dynamic import is written with a parenthesis, which the part between
 * `import` and the specifier may not contain.
 */
export function staticImports(code: string): string[] {
  return [...code.matchAll(/\bimport\s*(?:[^"'`();]*?\bfrom\s*)?["'`]\.\/([^"'`]+\.js)["'`]/g)].map((m) => m[1]!);
}

/** The lazily loaded screens routes.tsx names: `import('./capabilities/search/RetrievalTesting.tsx')` → that path. */
export function lazyScreens(routesSource = readFileSync(ROUTES, 'utf8')): string[] {
  return [...routesSource.matchAll(/import\(\s*'\.\/([^']+\.tsx)'\s*\)/g)].map((m) => m[1]!);
}

/**
 * The console's build as a browser meets it, found from the built files alone (index.html, then
 * each chunk's static imports): what the first page loads, and what each screen adds when first
 * visited. Null when dist/console has no build.
 */
export function readConsoleBundle(dir = CONSOLE_DIST): ConsoleBundle | null {
  const index = join(dir, 'index.html');
  const assets = join(dir, 'assets', 'console');
  if (!existsSync(index) || !existsSync(assets)) return null;
  const html = readFileSync(index, 'utf8');
  const sizes = new Map(readdirSync(assets).map((name) => [name, gzipSync(readFileSync(join(assets, name)), { level: 9 }).length]));
  const code = (name: string) => readFileSync(join(assets, name), 'utf8');
  const closure = (roots: string[]) => {
    const seen = new Set<string>();
    const visit = (name: string) => {
      if (seen.has(name) || !sizes.has(name)) return;
      seen.add(name);
      for (const imported of staticImports(code(name))) visit(imported);
    };
    roots.forEach(visit);
    return seen;
  };
  const referenced = [...html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="([^"]+)"[^>]*>/g)];
  const asset = (tag: RegExpMatchArray) => ASSET.exec(tag[1]!)?.[1];
  const scripts = referenced.filter((m) => /^<script\b/.test(m[0]) || /rel="modulepreload"/.test(m[0])).map(asset).filter((n): n is string => !!n?.endsWith('.js'));
  const styles = referenced.filter((m) => /rel="stylesheet"/.test(m[0])).map(asset).filter((n): n is string => !!n);
  const initial = closure(scripts);
  const gz = (names: Iterable<string>) => [...names].reduce((sum, name) => sum + (sizes.get(name) ?? 0), 0);
  const chunkOf = (module: string) => {
    const base = module.split('/').pop()!.replace(/\.tsx$/, '');
    return [...sizes.keys()].find((name) => name.endsWith('.js') && name.startsWith(`${base}-`) && /^[\w-]{6,12}\.js$/.test(name.slice(base.length + 1)));
  };
  const screens = lazyScreens().map((module): ScreenChunk => {
    const chunk = chunkOf(module);
    const added = chunk ? [...closure([chunk])].filter((name) => !initial.has(name)) : [];
    return { module, chunk, gz: chunk ? (sizes.get(chunk) ?? 0) : 0, added_gz: gz(added) };
  });
  return {
    initial: [...initial].map((name) => ({ name, gz: sizes.get(name) ?? 0 })),
    initial_js_gz: gz(initial),
    initial_css_gz: gz(styles),
    screens,
  };
}
