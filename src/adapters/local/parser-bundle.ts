import { build, stop } from 'esbuild';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PARSING = join(ROOT, 'src', 'parsing');

let built: Promise<Record<string, string>> | undefined;

/**
 * What a parser process needs to load our parsing code compiled once: the folder of a bundle
 * (esbuild, the compiler tsx itself runs), in KBQA_PARSER_BUNDLE. Loaded through tsx, every new
 * process transformed and resolved our modules again, 0.22–0.25 s before it could parse; from the
 * bundle 0.11–0.14 s, and 25 MB less resident (measured on the 400-page PDF, 3 cold processes each).
 * Built once per server, in 35 ms, beside the packages it imports (node_modules/.cache/kbqa), so
 * they resolve from it; removed at exit. Where it cannot be written (a read-only install) the
 * processes load the TypeScript as before: an empty result.
 */
export function parserBundleEnv(): Promise<Record<string, string>> {
  return (built ??= bundle().then(
    (dir) => ({ KBQA_PARSER_BUNDLE: dir }),
    () => ({}),
  ));
}

async function bundle(): Promise<string> {
  const cache = join(ROOT, 'node_modules', '.cache', 'kbqa');
  mkdirSync(cache, { recursive: true });
  removeOrphans(cache);
  const dir = mkdtempSync(join(cache, `parser-${process.pid}-`));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  await build({
    entryPoints: { 'worker-task': join(PARSING, 'worker-task.ts'), 'parser-settings': join(PARSING, 'parser-settings.ts') },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Packages load from node_modules as they are: pdf.js, tesseract.js and the others.
    packages: 'external',
    outdir: dir,
    logLevel: 'silent',
  }).finally(() => {
    // esbuild's service process would otherwise stay for the server's life: 25 MB resident, on top of
    // the parser's peak while a first large PDF is read (measured). It is built once, so the
    // service is not needed again.
    void stop();
  });
  return dir;
}

/** Bundles of servers that ended without their exit handler (killed): their process is gone. */
function removeOrphans(cache: string) {
  for (const name of readdirSync(cache)) {
    const pid = Number(/^parser-(\d+)-/.exec(name)?.[1]);
    if (pid && pid !== process.pid && !alive(pid)) rmSync(join(cache, name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
