import type { WorkflowDebugger } from '../../app/services/workflow-debugger.ts';
import type { WorkflowService } from '../../app/services/workflows.ts';
import type { Workflow as WorkflowBody } from '../../../schemas/http/workflows.ts';
import { Deleted, ListQuery, listOf } from '../../../schemas/http/common.ts';
import { CreateWorkflowBody, ReplaceWorkflowBody, ValidateWorkflowBody, Workflow, WorkflowValidation, WorkflowVersion } from '../../../schemas/http/workflows.ts';
import { ifMatch } from '../if-match.ts';
import { type Reply, route } from '../route.ts';

const tag = 'workflows';

/** The draft's version travels as a strong ETag; If-Match sends it back, and a save made since answers 409. */
const withEtag = (body: WorkflowBody, status = 200): Reply => ({ status, body, headers: { etag: `"${body.version}"` } });

export type WorkflowRouteDeps = { workflows: WorkflowService; debugger: WorkflowDebugger };

export function workflowRoutes({ workflows, debugger: debug }: WorkflowRouteDeps) {
  return [
    route({
      method: 'post',
      path: '/v1/workflows',
      summary: 'Create a workflow from a graph of nodes, from a template (knowledge-qa, intent-routing, http-lookup, summarise-each), or with neither: a start node whose question a reply node echoes',
      tag,
      scope: 'write',
      body: CreateWorkflowBody,
      response: Workflow,
      status: 201,
      handle: async ({ principal, body, requestId }) => withEtag(await workflows.create(principal, body, requestId), 201),
    }),
    route({
      method: 'get',
      path: '/v1/workflows',
      summary: 'List workflows',
      tag,
      scope: 'read',
      query: ListQuery,
      response: listOf(Workflow),
      handle: async ({ principal, query }) => ({ body: await workflows.list(principal, query) }),
    }),
    route({
      method: 'get',
      path: '/v1/workflows/:workflow_id',
      summary: 'Get a workflow: its draft (ETag: its version) and which version is published',
      tag,
      scope: 'read',
      response: Workflow,
      handle: async ({ principal, params }) => withEtag(await workflows.get(principal, params.workflow_id)),
    }),
    route({
      method: 'put',
      path: '/v1/workflows/:workflow_id',
      summary: 'Save a workflow’s name, description and graph: a new draft version (If-Match: the version edited; 409 concurrent_modification when another save came first)',
      tag,
      scope: 'write',
      body: ReplaceWorkflowBody,
      response: Workflow,
      handle: async ({ ctx, principal, params, body, requestId }) => withEtag(await workflows.replace(principal, params.workflow_id, body, ifMatch(ctx), requestId)),
    }),
    route({
      method: 'delete',
      path: '/v1/workflows/:workflow_id',
      summary: 'Delete a workflow (its queued runs fail)',
      tag,
      scope: 'write',
      response: Deleted('workflow.deleted'),
      handle: async ({ principal, params, requestId }) => ({ body: await workflows.remove(principal, params.workflow_id, requestId) }),
    }),
    route({
      method: 'post',
      path: '/v1/workflows/:workflow_id/publish',
      summary: 'Publish the draft: the version runs and agents take unless a run names another',
      tag,
      scope: 'write',
      response: Workflow,
      handle: async ({ principal, params, requestId }) => withEtag(await workflows.publish(principal, params.workflow_id, requestId)),
    }),
    route({
      method: 'get',
      path: '/v1/workflows/:workflow_id/versions',
      summary: 'Every saved version of a workflow the key may read, newest first, with when it was published',
      tag,
      scope: 'read',
      response: listOf(WorkflowVersion),
      handle: async ({ principal, params }) => ({ body: await workflows.versions(principal, params.workflow_id) }),
    }),
    route({
      method: 'post',
      path: '/v1/workflows/validate',
      summary: 'Check a graph without saving it: every fault at once, each on the node at fault',
      tag,
      operationId: 'validateWorkflow',
      scope: 'read',
      body: ValidateWorkflowBody,
      response: WorkflowValidation,
      handle: async ({ principal, body }) => ({ body: await debug.validate(principal, body.graph) }),
    }),
  ];
}
