import { createHash } from 'node:crypto';
import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import type { WorkflowRunDoc } from '../../../projections/workflow-runs/index.ts';
import type { WorkflowDoc } from '../../../projections/workflows/index.ts';
import type { WorkflowGraph } from '../../../schemas/workflow.ts';
import { validateInputs } from '../../domain/workflow/inputs.ts';
import { knowledgeQaGraph } from '../../domain/workflow/knowledge-qa.ts';
import { workflowRunDecider } from '../../domain/workflow/run.ts';
import { workflowDecider } from '../../domain/workflow/workflow.ts';
import { handleCommand } from '../command-handler.ts';
import { type AppContext, commandMetadata, settled } from '../context.ts';
import { badRequest, notFoundError } from '../errors.ts';
import { claimIdempotencyKey, completeIdempotencyKey } from './idempotency.ts';
import type { ModelCatalog } from './models.ts';
import { findPage, type PageRequest } from './paging.ts';
import { type Principal, requireKnowledgeBaseAccess } from './principal.ts';

export type WorkflowInput = {
  name: string;
  description?: string | null;
  graph?: WorkflowGraph;
  template?: 'knowledge-qa';
  knowledge_base_id?: string;
  model?: string;
};

export type ResponseMode = 'blocking' | 'streaming' | 'async';

export function presentWorkflow({ workspace_id: _ws, ...visible }: WorkflowDoc) {
  return visible;
}

export function presentRun({ workspace_id: _ws, response_mode: _mode, ...visible }: WorkflowRunDoc) {
  return visible;
}

export function createWorkflowService(ctx: AppContext, models: ModelCatalog) {
  async function workflow(principal: Principal, id: string): Promise<WorkflowDoc> {
    const doc = await ctx.readModels.get<WorkflowDoc>('workflows', id);
    if (!doc || doc.workspace_id !== principal.workspaceId) throw notFoundError('workflow_not_found', `No workflow found with id '${id}'.`);
    return doc;
  }

  /** What the graph's schema cannot know: the models and knowledge bases its nodes name exist here. */
  async function checkReferences(principal: Principal, graph: WorkflowGraph) {
    for (const node of graph.nodes) {
      const param = `graph.nodes.${node.id}.config`;
      if (node.type === 'llm' && models.get(node.config.model)?.kind !== 'chat') {
        throw badRequest('model_not_found', `node '${node.id}': '${node.config.model}' is not a chat model of this deployment (see GET /v1/models)`, `${param}.model`);
      }
      if (node.type === 'knowledge_retrieval') {
        const kbId = node.config.knowledge_base_id;
        requireKnowledgeBaseAccess(principal, kbId);
        const kb = await ctx.readModels.get<KnowledgeBaseDoc>('knowledge_bases', kbId);
        if (!kb || kb.workspace_id !== principal.workspaceId) {
          throw badRequest('knowledge_base_not_found', `node '${node.id}': no knowledge base '${kbId}'`, `${param}.knowledge_base_id`);
        }
      }
    }
  }

  return {
    workflow,

    async create(principal: Principal, input: WorkflowInput, correlationId?: string) {
      const graph = input.template ? knowledgeQaGraph(input.knowledge_base_id!, input.model) : input.graph!;
      await checkReferences(principal, graph);
      const id = ctx.newId('wf');
      const result = await handleCommand(ctx.store, workflowDecider, id, {
        type: 'CreateWorkflow',
        data: { workflow_id: id, workspace_id: principal.workspaceId, name: input.name, description: input.description ?? null, graph },
        metadata: commandMetadata(ctx, principal.keyId, correlationId),
      });
      await settled(ctx, result);
      return presentWorkflow(await workflow(principal, id));
    },

    async list(principal: Principal, page: PageRequest) {
      return findPage(ctx.readModels, 'workflows', { workspace_id: principal.workspaceId }, page, (d: WorkflowDoc) => presentWorkflow(d));
    },

    get: async (principal: Principal, id: string) => presentWorkflow(await workflow(principal, id)),

    async replace(principal: Principal, id: string, input: { name: string; description?: string | null; graph: WorkflowGraph }, correlationId?: string) {
      await workflow(principal, id);
      await checkReferences(principal, input.graph);
      const result = await handleCommand(ctx.store, workflowDecider, id, {
        type: 'UpdateWorkflow',
        data: { workflow_id: id, workspace_id: principal.workspaceId, name: input.name, description: input.description ?? null, graph: input.graph },
        metadata: commandMetadata(ctx, principal.keyId, correlationId),
      });
      await settled(ctx, result);
      return presentWorkflow(await workflow(principal, id));
    },

    async remove(principal: Principal, id: string, correlationId?: string) {
      await workflow(principal, id);
      const result = await handleCommand(ctx.store, workflowDecider, id, {
        type: 'DeleteWorkflow',
        data: { workflow_id: id, workspace_id: principal.workspaceId },
        metadata: commandMetadata(ctx, principal.keyId, correlationId),
      });
      await settled(ctx, result);
      return { id, object: 'workflow.deleted', deleted: true };
    },

    /**
     * Checks the inputs against the start node and appends WorkflowRunRequested; the runner
     * consumer executes it. A retry with the same Idempotency-Key gets the first run back.
     */
    async requestRun(principal: Principal, workflowId: string, input: { inputs: unknown; mode: ResponseMode; idempotencyKey?: string }) {
      const wf = await workflow(principal, workflowId);
      const start = wf.graph.nodes.find((n) => n.type === 'start');
      if (start?.type !== 'start') throw new Error(`workflow ${workflowId} has no start node`);
      const checked = validateInputs(start.config, input.inputs ?? {});
      if (!checked.ok) throw badRequest('invalid_input', checked.message, checked.param);
      const fingerprint = createHash('sha256').update(JSON.stringify([workflowId, checked.values, input.mode])).digest('hex');
      if (input.idempotencyKey) {
        const earlier = await claimIdempotencyKey(ctx, principal, input.idempotencyKey, fingerprint);
        if (earlier) return { runId: earlier.resourceIds[0]!, position: 0n };
      }
      const runId = ctx.newId('run');
      const result = await handleCommand(ctx.store, workflowRunDecider, runId, {
        type: 'RequestRun',
        data: {
          run_id: runId,
          workflow_id: workflowId,
          workflow_version: wf.version,
          workspace_id: principal.workspaceId,
          inputs: checked.values,
          response_mode: input.mode,
        },
        metadata: commandMetadata(ctx, principal.keyId),
      });
      if (input.idempotencyKey) await completeIdempotencyKey(ctx, principal, input.idempotencyKey, 200, [runId]);
      await settled(ctx, result);
      return { runId, position: result.position };
    },

    async run(principal: Principal, runId: string): Promise<WorkflowRunDoc> {
      const doc = await ctx.readModels.get<WorkflowRunDoc>('workflow_runs', runId);
      if (!doc || doc.workspace_id !== principal.workspaceId) throw notFoundError('workflow_run_not_found', `No workflow run found with id '${runId}'.`);
      return doc;
    },
  };
}

export type WorkflowService = ReturnType<typeof createWorkflowService>;
