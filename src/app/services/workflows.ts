import { refuseWhileAgentsUse } from './agent-references.ts';
import { createHash } from 'node:crypto';
import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import type { WorkflowRunDoc } from '../../../projections/workflow-runs/index.ts';
import type { WorkflowDoc } from '../../../projections/workflows/index.ts';
import type { ResponseMode } from '../../../schemas/events/workflow-run.ts';
import type { Workflow, WorkflowRun } from '../../../schemas/http/workflows.ts';
import type { WorkflowGraph } from '../../../schemas/workflow.ts';
import { knowledgeBasesOf, nodesAt } from '../../domain/workflow/graph.ts';
import { validateInputs } from '../../domain/workflow/inputs.ts';
import { namedIn } from '../../domain/workflow/nodes/index.ts';
import { intentRoutingGraph } from '../../domain/workflow/intent-routing.ts';
import { knowledgeQaGraph } from '../../domain/workflow/knowledge-qa.ts';
import { workflowRunDecider } from '../../domain/workflow/run.ts';
import { workflowDecider } from '../../domain/workflow/workflow.ts';
import { handleCommand } from '../command-handler.ts';
import { type AppContext, commandMetadata, settled } from '../context.ts';
import { notAModelMessage } from '../../domain/shared/errors.ts';
import { badRequest, resourceNotFound } from '../errors.ts';
import { claimIdempotencyKey, completeIdempotencyKey } from './idempotency.ts';
import type { ModelCatalog } from './models.ts';
import type { WorkspaceModelResolver } from './workspace-models.ts';
import { findPage, type PageRequest } from './paging.ts';
import { type Principal, requireKnowledgeBaseAccess, requireKnowledgeBasesAccess, visibleTo } from './principal.ts';
import { runAsRequested } from '../../../projections/workflow-runs/index.ts';
import type { RecordedEvent } from '../../ports/event-store.ts';
import { provenanceOf, requireProvenanceAccess } from './provenance.ts';

export type WorkflowInput = {
  name: string;
  description?: string | null;
  graph?: WorkflowGraph;
  template?: 'knowledge-qa' | 'intent-routing';
  knowledge_base_id?: string;
  knowledge_base_ids?: string[];
  model?: string;
};

export function presentWorkflow({ workspace_id: _ws, ...visible }: WorkflowDoc): Workflow {
  return visible;
}

export function presentRun({ workspace_id: _ws, response_mode: _mode, knowledge_base_ids: _kbs, ...visible }: WorkflowRunDoc): WorkflowRun {
  return visible;
}

/** `workspaceModels`: a graph may name the chat models of the caller's workspace's providers (`{provider}/{model}`). */
export function createWorkflowService(ctx: AppContext, models: ModelCatalog, workspaceModels?: Pick<WorkspaceModelResolver, 'entryOf'>) {
  /** A workflow of the caller's workspace that the key may use: every knowledge base it names. */
  async function workflow(principal: Principal, id: string): Promise<WorkflowDoc> {
    const doc = await ctx.readModels.get<WorkflowDoc>('workflows', id);
    if (!doc || doc.workspace_id !== principal.workspaceId) throw resourceNotFound('workflow', id);
    requireKnowledgeBasesAccess(principal, knowledgeBasesOf(doc.graph));
    return doc;
  }

  /**
   * The knowledge bases a run belongs to: those its workflow version named when it was requested,
   * or, for runs recorded before that was kept, its workflow's current ones (all of them, so
   * none for a limited key, once the workflow is gone).
   */
  async function knowledgeBasesOfRun(run: WorkflowRunDoc): Promise<string[] | null> {
    if (run.knowledge_base_ids) return run.knowledge_base_ids;
    const wf = await ctx.readModels.get<WorkflowDoc>('workflows', run.workflow_id);
    return wf ? knowledgeBasesOf(wf.graph) : null;
  }

  /**
   * What the graph's schema cannot know: the models and knowledge bases its nodes name (the config
   * fields each node type declares, src/domain/workflow/nodes/) exist here, and the key may read those
   * knowledge bases. A template's graph was not written by the client: its faults name the request's own fields.
   */
  async function checkReferences(principal: Principal, graph: WorkflowGraph, fromTemplate = false) {
    // A sub-graph's nodes (an iteration's) name models and knowledge bases too; their faults give the path through the node holding them.
    for (const { node, param: at } of nodesAt(graph)) {
      const param = fromTemplate ? null : `${at}.config`;
      const field = (name: string) => (param ? `${param}.${name}` : name);
      for (const { field: name, id } of namedIn(node, 'chatModels')) {
        const known = models.get(id)?.kind === 'chat' || (await workspaceModels?.entryOf(principal.workspaceId, id, 'chat')) !== undefined;
        if (!known) throw badRequest('model_not_found', `${field(name)}: ${notAModelMessage(id, 'chat')}`, field(name));
      }
      for (const { field: name, id: kbId } of namedIn(node, 'knowledgeBases')) {
        requireKnowledgeBaseAccess(principal, kbId);
        const kb = await ctx.readModels.get<KnowledgeBaseDoc>('knowledge_bases', kbId);
        if (!kb || kb.workspace_id !== principal.workspaceId) {
          throw resourceNotFound('knowledge_base', kbId, field(name));
        }
      }
    }
  }

  /** The graph to save: the client's, or a template's built for the knowledge bases it names (which the key must read). */
  async function graphOf(principal: Principal, input: WorkflowInput): Promise<WorkflowGraph> {
    if (input.template === 'knowledge-qa') return knowledgeQaGraph(input.knowledge_base_id!, input.model);
    if (input.template !== 'intent-routing') return input.graph!;
    const routes = [];
    for (const [i, kbId] of (input.knowledge_base_ids ?? []).entries()) {
      requireKnowledgeBaseAccess(principal, kbId);
      const kb = await ctx.readModels.get<KnowledgeBaseDoc>('knowledge_bases', kbId);
      if (!kb || kb.workspace_id !== principal.workspaceId) throw resourceNotFound('knowledge_base', kbId, `knowledge_base_ids.${i}`);
      routes.push({ knowledgeBaseId: kbId, name: kb.name, description: kb.description });
    }
    return intentRoutingGraph(routes, input.model);
  }

  return {
    workflow,

    async create(principal: Principal, input: WorkflowInput, correlationId?: string) {
      const graph = await graphOf(principal, input);
      await checkReferences(principal, graph, input.template !== undefined);
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
      const visible = visibleTo(principal, (d: WorkflowDoc) => knowledgeBasesOf(d.graph));
      return findPage(ctx.readModels, 'workflows', { workspace_id: principal.workspaceId }, page, { present: presentWorkflow, visible });
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
      await refuseWhileAgentsUse(ctx.readModels, principal.workspaceId, { workflowId: id }, `workflow '${id}'`);
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
        if (earlier) return { runId: earlier.resourceIds[0]!, accepted: null };
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
          // Its outputs are built from what its nodes retrieve: the run's provenance (provenance.ts).
          knowledge_base_ids: provenanceOf(knowledgeBasesOf(wf.graph)),
        },
        metadata: commandMetadata(ctx, principal.keyId),
      });
      if (input.idempotencyKey) await completeIdempotencyKey(ctx, principal, input.idempotencyKey, 200, [runId]);
      await settled(ctx, result);
      const requested = result.events.find((e) => e.type === 'WorkflowRunRequested');
      return { runId, accepted: requested?.type === 'WorkflowRunRequested' ? runAsRequested(requested.data) : null };
    },

    /** The run's events as recorded, oldest first (the same access as the run). */
    async runEvents(principal: Principal, runId: string): Promise<RecordedEvent[]> {
      await this.run(principal, runId);
      return ctx.store.readStream(workflowRunDecider.streamId(runId));
    },

    async run(principal: Principal, runId: string): Promise<WorkflowRunDoc> {
      const doc = await ctx.readModels.get<WorkflowRunDoc>('workflow_runs', runId);
      if (!doc || doc.workspace_id !== principal.workspaceId) throw resourceNotFound('workflow_run', runId);
      requireProvenanceAccess(principal, await knowledgeBasesOfRun(doc));
      return doc;
    },
  };
}

export type WorkflowService = ReturnType<typeof createWorkflowService>;
