import { resolve } from 'node:path';
import { z } from 'zod';

/**
 * Where the built-in local models are and how many cores each computes on, for src/config.ts (the
 * one reader of the environment), kept here so that file stays within its size. What they mean:
 * docs/local-models.md, docs/configuration.md.
 */
export const localModelsEnv = {
  KBQA_MODELS_DIR: z.string().min(1).optional(),
  KBQA_MODEL_THREADS: z.coerce.number().int().min(1).default(1),
};

export type LocalModelsConfig = {
  /** The models' folders and their runtime (KBQA_MODELS_DIR; default `models/` beside the data directory). */
  modelsDir: string;
  /** Intra-op threads of each local model's session (KBQA_MODEL_THREADS): one leaves the other core to the event loop and the parser on 2 cores. */
  modelThreads: number;
};

export function localModelsConfig(e: { KBQA_MODELS_DIR?: string; KBQA_MODEL_THREADS: number; KBQA_DATA_DIR: string }): LocalModelsConfig {
  return { modelsDir: e.KBQA_MODELS_DIR ? resolve(e.KBQA_MODELS_DIR) : resolve(e.KBQA_DATA_DIR, '..', 'models'), modelThreads: e.KBQA_MODEL_THREADS };
}
