import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = fileURLToPath(new URL('./model-runtime/', import.meta.url));
const FILES = ['package.json', 'package-lock.json'];

/** Where the runtime of the local models lives: beside their folders, not in the project's node_modules. */
export const runtimeDir = (modelsDir: string) => join(modelsDir, 'runtime');

const lockDigest = () => createHash('sha256').update(readFileSync(join(SOURCE, 'package-lock.json'))).digest('hex');
const STAMP = '.installed-lock-sha256';

/** Whether the runtime is installed from the lockfile this code ships. */
export function runtimeInstalled(modelsDir: string): boolean {
  const stamp = join(runtimeDir(modelsDir), STAMP);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === lockDigest();
}

/**
 * @huggingface/transformers and onnxruntime-node (about 480 MB unpacked, most of it onnxruntime's
 * binaries for every platform and its web build) from the lockfile in model-runtime/, with
 * `npm ci` in the models directory: only where a local model is fetched or installed, so the
 * project's own `npm ci` stays as lean as before for everyone else. onnxruntime-node's install step
 * would fetch a CUDA provider from outside the npm registry (it fails offline, and the CPU binaries
 * ship in the package): ONNXRUNTIME_NODE_INSTALL=skip for npm before 11, allowScripts for npm 11.
 * (An .npmrc setting would do as well, but npm 11 warns about every key it does not know.)
 */
export function installRuntime(modelsDir: string, log: (line: string) => void): void {
  if (runtimeInstalled(modelsDir)) return;
  const dir = runtimeDir(modelsDir);
  mkdirSync(dir, { recursive: true });
  for (const file of FILES) copyFileSync(join(SOURCE, file), join(dir, file));
  log(`model runtime: npm ci in ${dir}`);
  const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--omit=dev'], { cwd: dir, stdio: ['ignore', 2, 'inherit'], env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' } });
  if (npm.error || npm.status !== 0) throw new Error(`npm ci of the model runtime failed in ${dir} (${npm.error?.message ?? `exit ${npm.status}`}).`);
  writeFileSync(join(dir, STAMP), `${lockDigest()}\n`);
}
