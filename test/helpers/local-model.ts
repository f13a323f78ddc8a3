import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MINILM } from '../../src/adapters/local/local-model-specs.ts';
import { findLocalModels } from '../../src/adapters/local/model-folders.ts';
import { runtimeDir, runtimeInstalled } from '../../src/adapters/local/model-runtime.ts';

/** Where `npm run models:fetch` puts the models (KBQA_MODELS_DIR, else models/ in the repository), which these tests read. */
export const MODELS_DIR = process.env.KBQA_MODELS_DIR ? resolve(process.env.KBQA_MODELS_DIR) : join(fileURLToPath(new URL('../..', import.meta.url)), 'models');

export const RUNTIME = runtimeDir(MODELS_DIR);

/**
 * The MiniLM folder, or why there is none: a 23 MB model cannot be made inside a test, so its
 * tests run where `npm run models:fetch` put it (CI does, .ci/run) and otherwise skip with the
 * reason printed (a skipped test must not pass silently). The runtime must load too.
 */
export function miniLmForTests(): string | undefined {
  const found = findLocalModels(MODELS_DIR).find((m) => m.spec.id === MINILM.id)!;
  let why: string | undefined;
  if (found.state !== 'installed') why = `${MINILM.id} is ${found.state} in ${MODELS_DIR} (npm run models:fetch)`;
  else if (!runtimeInstalled(MODELS_DIR)) why = `the model runtime is not installed in ${RUNTIME} (npm run models:fetch)`;
  if (why) process.stderr.write(`local model tests skipped: ${why}\n`);
  return why ? undefined : found.folder;
}
