import test from 'ava';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LocalModelSpec } from '../../src/adapters/local/local-model-specs.ts';
import { findLocalModels, installModelFolder, verifyModelFolder } from '../../src/adapters/local/model-folders.ts';
import { MINILM } from '../../src/adapters/local/local-model-specs.ts';
import { tempDir } from '../helpers/temp.ts';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** A model spec pinned to two files made here (the real one's 23 MB cannot be). */
function madeModel(files: Record<string, string>): LocalModelSpec {
  return {
    ...MINILM,
    id: 'local/made',
    folder: 'made',
    sources: [],
    files: Object.entries(files).map(([path, text]) => ({ path, sha256: sha(text), bytes: Buffer.byteLength(text), from: { source: 'none', path } })),
  };
}

const FILES = { 'tokenizer.json': '{"model":"made"}', 'onnx/model_quantized.onnx': 'weights' };

test('install copies the files from a folder, each checked, and verify passes them', async (t) => {
  const dir = tempDir();
  t.teardown(dir.remove);
  const source = join(dir.path, 'from');
  mkdirSync(join(source, 'onnx'), { recursive: true });
  for (const [path, text] of Object.entries(FILES)) writeFileSync(join(source, path), text);
  const spec = madeModel(FILES);
  const folder = await installModelFolder(join(dir.path, 'models'), spec, [source]);
  t.deepEqual(
    (await verifyModelFolder(folder, spec)).map((c) => c.ok),
    [true, true],
  );
});

test('verify catches a changed file and a missing one', async (t) => {
  const dir = tempDir();
  t.teardown(dir.remove);
  const spec = madeModel(FILES);
  const folder = join(dir.path, 'made');
  mkdirSync(join(folder, 'onnx'), { recursive: true });
  writeFileSync(join(folder, 'tokenizer.json'), '{"model":"mad3"}');
  const checks = await verifyModelFolder(folder, spec);
  t.deepEqual(checks, [
    { path: 'tokenizer.json', ok: false, problem: 'changed' },
    { path: 'onnx/model_quantized.onnx', ok: false, problem: 'missing' },
  ]);
});

test('install refuses a file whose sha256 is not the pinned one and leaves no folder', async (t) => {
  const dir = tempDir();
  t.teardown(dir.remove);
  const source = join(dir.path, 'from');
  mkdirSync(join(source, 'onnx'), { recursive: true });
  writeFileSync(join(source, 'tokenizer.json'), FILES['tokenizer.json']);
  writeFileSync(join(source, 'onnx/model_quantized.onnx'), 'other weights');
  const models = join(dir.path, 'models');
  const error = await t.throwsAsync(installModelFolder(models, madeModel(FILES), [source]));
  t.regex(error!.message, /^onnx\/model_quantized\.onnx: sha256 [0-9a-f]{64} is not the pinned [0-9a-f]{64}\.$/);
  t.false(existsSync(join(models, 'made')), 'no folder');
  t.deepEqual(readdirSync(models), [], 'nothing half-written left beside it');
});

test('a folder with a file of the wrong size is incomplete, not installed', (t) => {
  const dir = tempDir();
  t.teardown(dir.remove);
  mkdirSync(join(dir.path, MINILM.folder, 'onnx'), { recursive: true });
  writeFileSync(join(dir.path, MINILM.folder, 'tokenizer.json'), '{}');
  const [found] = findLocalModels(dir.path);
  t.is(found!.state, 'incomplete');
});
