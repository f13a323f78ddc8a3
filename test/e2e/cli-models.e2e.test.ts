import test from 'ava';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MINILM } from '../../src/adapters/local/local-model-specs.ts';
import { miniLmForTests } from '../helpers/local-model.ts';
import { run } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp.ts';

const kbqa = async (args: string[], env: Record<string, string> = {}) => {
  const started = run('node', ['bin/kbqa.js', ...args], env);
  return { code: await started.exited, output: started.output() };
};

const folder = miniLmForTests();
const withModel = folder ? test : test.skip;

test('kbqa models lists the built-in model as not installed in an empty models directory, and verify says so', async (t) => {
  const dir = tempDir();
  t.teardown(dir.remove);
  const listed = await kbqa(['models', 'list', '--json'], { KBQA_MODELS_DIR: dir.path });
  t.is(listed.code, 0, listed.output);
  t.like(JSON.parse(listed.output)[0], { id: MINILM.id, state: 'missing', bytes: 0, dimensions: 384, licence: 'Apache-2.0' });
  const verified = await kbqa(['models', 'verify', '--model', MINILM.id], { KBQA_MODELS_DIR: dir.path });
  t.is(verified.code, 1);
  t.regex(verified.output, /local\/all-minilm-l6-v2: not installed/);
  const install = await kbqa(['models', 'install'], { KBQA_MODELS_DIR: dir.path });
  t.is(install.code, 1);
  t.regex(install.output, /needs a model folder or the wheels/);
});

withModel('kbqa models verify passes the installed folder and catches a changed file by its sha256', async (t) => {
  const dir = tempDir();
  t.teardown(dir.remove);
  cpSync(folder!, join(dir.path, MINILM.folder), { recursive: true });
  const ok = await kbqa(['models', 'verify'], { KBQA_MODELS_DIR: dir.path });
  t.is(ok.code, 0, ok.output);
  t.regex(ok.output, /local\/all-minilm-l6-v2: ok, 8 files match their sha256/);
  // Same size, one byte changed: only the hash can tell (the start's presence check cannot).
  const config = join(dir.path, MINILM.folder, 'tokenizer_config.json');
  writeFileSync(config, '{"do_lower_case": false'.padEnd(MINILM.files.find((f) => f.path === 'tokenizer_config.json')!.bytes, ' '));
  const changed = await kbqa(['models', 'verify'], { KBQA_MODELS_DIR: dir.path });
  t.is(changed.code, 1, changed.output);
  t.regex(changed.output, /tokenizer_config\.json does not match its sha256/);
  t.regex(changed.output, /1 of 8 files fail/);
});
