import { workflowEvents } from '../../schemas/events/workflow.ts';
import { workflowRunEvents } from '../../schemas/events/workflow-run.ts';
import { workflowRunsProjection } from '../../projections/workflow-runs/index.ts';
import { workflowsProjection } from '../../projections/workflows/index.ts';
import { runnerConsumer } from '../../consumers/runner/index.ts';
import { workflowRunDecider } from '../domain/workflow/run.ts';
import { workflowDecider } from '../domain/workflow/workflow.ts';
import { workflowRunRoutes } from '../http/routes/workflow-runs.ts';
import { workflowRoutes } from '../http/routes/workflows.ts';
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
      ...deps.services.workflowEngine,
      limits: deps.workflowRuns,
      onInternalError: (error, runId) => deps.logger.error({ err: error, runId }, 'a workflow run failed on an internal error'),
    }),
  }),
  routes: ({ services, settings }) => [
    ...workflowRoutes({ workflows: services.workflows, debugger: services.workflowDebugger }),
    ...workflowRunRoutes({
      workflows: services.workflows,
      debugger: services.workflowDebugger,
      feed: settings.feed,
      blockingWaitMs: settings.workflowBlockingWaitMs,
      onError: settings.onServerError,
    }),
  ],
});
