import test from 'ava';
import { lazyScreens, readConsoleBundle, staticImports } from '../helpers/console-bundle.ts';

/** What the console's first page may load before any interaction: bench/console.bench.ts measures the same against Lighthouse's goals. */
const INITIAL_JS_BUDGET_GZ = 250 * 1024;

const bundle = readConsoleBundle();
const built = bundle ? test : test.skip;
if (!bundle) process.stderr.write('console budget tests skipped: the console is not built (run `npm run build:console`)\n');

test('static imports are told from dynamic ones in a built chunk', (t) => {
  const code = 'import{n as e,t}from"./index-CZ6vWeoE.js";import"./shared-Ab12Cd34.js";const s=()=>import("./Screen-Xy12Zz90.js");';
  t.deepEqual(staticImports(code), ['index-CZ6vWeoE.js', 'shared-Ab12Cd34.js']);
});

test('routes.tsx loads every screen lazily', (t) => {
  const screens = lazyScreens();
  t.true(screens.includes('capabilities/knowledge-bases/KnowledgeBaseList.tsx'));
  t.true(screens.length >= 12, `only ${screens.length} lazy screens found in routes.tsx`);
});

built(`the console's initial JavaScript (index.html's script and all it imports statically) is at most ${INITIAL_JS_BUDGET_GZ / 1024} KB gzipped`, (t) => {
  const { initial, initial_js_gz } = bundle!;
  t.true(initial.length > 0, 'index.html loads no script of dist/console');
  const files = initial.map((c) => `${c.name} ${(c.gz / 1024).toFixed(1)} KB`).join(', ');
  t.true(initial_js_gz <= INITIAL_JS_BUDGET_GZ, `${(initial_js_gz / 1024).toFixed(1)} KB gzipped: ${files}`);
});

built('each screen is a chunk of its own, which the first page does not load: only sign-in and the shell are in the entry', (t) => {
  const initial = new Set(bundle!.initial.map((c) => c.name));
  for (const screen of bundle!.screens) {
    // A screen also imported statically (from the shell, another screen's static import chain) is folded into that chunk: no chunk of its own.
    t.truthy(screen.chunk, `${screen.module} has no lazy chunk: imported statically somewhere, or dist/console is older than routes.tsx (npm run build:console)`);
    t.false(initial.has(screen.chunk!), `${screen.module}'s chunk ${screen.chunk} is loaded by the first page`);
  }
});
