import { z } from 'zod';

/**
 * The runner's limits, for src/config.ts (the one reader of the environment), kept here so that
 * file stays within its size. What they mean: consumers/runner/scheduler.ts, docs/configuration.md.
 */
export const workflowRunsEnv = {
  KBQA_WORKFLOW_CONCURRENCY: z.coerce.number().int().min(1).default(16),
  KBQA_WORKFLOW_CONCURRENCY_PER_WORKSPACE: z.coerce.number().int().min(1).default(4),
  KBQA_WORKFLOW_HELD_RUNS: z.coerce.number().int().min(1).default(1000),
};

export type WorkflowRunLimits = { concurrency: number; perWorkspace: number; held: number };

type Parsed = { [K in keyof typeof workflowRunsEnv]: number };

/** A workspace's share is at most the whole; the runs held ahead at least fill every slot. */
export function workflowRunLimits(e: Parsed): WorkflowRunLimits {
  const concurrency = e.KBQA_WORKFLOW_CONCURRENCY;
  return { concurrency, perWorkspace: Math.min(e.KBQA_WORKFLOW_CONCURRENCY_PER_WORKSPACE, concurrency), held: Math.max(e.KBQA_WORKFLOW_HELD_RUNS, concurrency) };
}
