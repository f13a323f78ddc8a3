import { workflowEvents } from '../../schemas/events/workflow.ts';
import { workflowRunEvents } from '../../schemas/events/workflow-run.ts';
import { workflowRunsProjection } from '../../projections/workflow-runs/index.ts';
import { workflowsProjection } from '../../projections/workflows/index.ts';
import { runnerConsumer } from '../../consumers/runner/index.ts';
import { workflowRunDecider } from '../domain/workflow/run.ts';
import { workflowDecider } from '../domain/workflow/workflow.ts';
import { workflowRoutes } from '../http/routes/workflows.ts';
import { parseHostAllowList } from '../lib/address-policy.ts';
import { defineCapability } from './capability.ts';

/** Its node types are one file each in src/domain/workflow/nodes/, registered in NODE_TYPES there (docs/how-to-add-a-node-type.md). */
export const workflows = defineCapability({
  name: 'workflows',
  summary: 'Node graphs, saved and versioned, and their runs, executed by the runner consumer.',
  events: { ...workflowEvents, ...workflowRunEvents },
  deciders: [workflowDecider, workflowRunDecider],
  projections: [workflowsProjection, workflowRunsProjection],
  consumers: (deps) => ({
    runner: runnerConsumer({
      ctx: deps.services.ctx,
      search: deps.services.search,
      chatModels: deps.chatModels,
      workspaceModels: deps.services.workspaceModels,
      maxContextTokens: deps.maxContextTokens,
      // The deployment's own embedder (owned by kbqa), never a provider's: classifying must not cost a network call.
      offlineEmbedder: [...deps.embedders.values()].find((embedder) => embedder.model.ownedBy === 'kbqa'),
      httpAllow: parseHostAllowList(deps.workflowHttpAllowHosts),
      secrets: deps.services.secrets,
      onInternalError: (error, runId) => deps.logger.error({ err: error, runId }, 'a workflow run failed on an internal error'),
    }),
  }),
  routes: ({ services, settings }) =>
    workflowRoutes({
      workflows: services.workflows,
      feed: settings.feed,
      blockingWaitMs: settings.workflowBlockingWaitMs,
      onError: settings.onServerError,
    }),
});
