// `npm ci` runs this (`prepare`): the console's build, dist/console, which the server serves at `/`.
// A production install (`npm ci --omit=dev`) has no Vite: it says so and builds nothing; the
// Dockerfile builds the console in a stage of its own and copies dist/console.
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
let vite;
try {
  vite = join(dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');
} catch {
  console.log('kbqa: Vite is not installed (a production install): the console is not built. `npm run build:console` builds it.');
  process.exit(0);
}
const result = spawnSync(process.execPath, [vite, 'build', '--config', 'web/console/vite.config.ts', '--logLevel', 'warn'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
