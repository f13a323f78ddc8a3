import test from 'ava';
import { resolve } from 'node:path';
import { loadConfig } from '../../src/config.ts';

test('the models directory is models/ beside the data directory unless KBQA_MODELS_DIR says otherwise', (t) => {
  t.is(loadConfig({}).modelsDir, resolve('models'));
  t.is(loadConfig({ KBQA_DATA_DIR: '/srv/kbqa/data' }).modelsDir, '/srv/kbqa/models');
  t.is(loadConfig({ KBQA_DATA_DIR: '/srv/kbqa/data', KBQA_MODELS_DIR: '/opt/models' }).modelsDir, '/opt/models');
});

test('a local model computes on one core unless KBQA_MODEL_THREADS says more, and never on none', (t) => {
  t.is(loadConfig({}).modelThreads, 1);
  t.is(loadConfig({ KBQA_MODEL_THREADS: '2' }).modelThreads, 2);
  t.throws(() => loadConfig({ KBQA_MODEL_THREADS: '0' }), { message: /KBQA_MODEL_THREADS/ });
});
