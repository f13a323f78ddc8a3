/** Workflows: node graphs, saved and versioned, run by the runner consumer (see documents.ts for why an index). */
export { workflowEvents } from '../../schemas/events/workflow.ts';
export { workflowRunEvents } from '../../schemas/events/workflow-run.ts';
export { CreateWorkflowBody, RunWorkflowBody, Workflow, WorkflowRun } from '../../schemas/http/workflows.ts';
export { workflowDecider } from '../domain/workflow/workflow.ts';
export { workflowRunDecider } from '../domain/workflow/run.ts';
export { validateGraph, knowledgeBasesOf } from '../domain/workflow/graph.ts';
export { NODE_TYPES } from '../domain/workflow/nodes/index.ts';
export { workflowsProjection } from '../../projections/workflows/index.ts';
export { workflowRunsProjection } from '../../projections/workflow-runs/index.ts';
export { createWorkflowService } from '../app/services/workflows.ts';
export { workflowRoutes } from '../http/routes/workflows.ts';
export { runnerConsumer } from '../../consumers/runner/index.ts';
