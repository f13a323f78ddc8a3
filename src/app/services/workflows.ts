import { refuseWhileAgentsUse } from './agent-references.ts';
import { createHash } from 'node:crypto';
import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import type { WorkflowRunDoc } from '../../../projections/workflow-runs/index.ts';
import type { WorkflowDoc } from '../../../projections/workflows/index.ts';
import type { ResponseMode } from '../../../schemas/events/workflow-run.ts';
import type { Workflow, WorkflowRun, WorkflowTemplate } from '../../../schemas/http/workflows.ts';
import type { WorkflowGraph } from '../../../schemas/workflow.ts';
import { fromNodeOn, knowledgeBasesOf, nodesAt } from '../../domain/workflow/graph.ts';
import { validateInputs } from '../../domain/workflow/inputs.ts';
import { namedIn } from '../../domain/workflow/nodes/index.ts';
import { defaultGraph } from '../../domain/workflow/default-graph.ts';
import { intentRoutingGraph } from '../../domain/workflow/intent-routing.ts';
import { knowledgeQaGraph } from '../../domain/workflow/knowledge-qa.ts';
import { httpLookupGraph } from '../../domain/workflow/http-lookup.ts';
import { summariseEachGraph } from '../../domain/workflow/summarise-each.ts';
import { workflowRunDecider } from '../../domain/workflow/run.ts';
import { workflowDecider } from '../../domain/workflow/workflow.ts';
import { resolveVersion, versionsOf, type VersionRequest } from '../../domain/workflow/versions.ts';
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
  template?: WorkflowTemplate;
  knowledge_base_id?: string;
  knowledge_base_ids?: string[];
  lookup_url?: string;
  model?: string;
};

export type RunRequest = {
  inputs: unknown;
  mode: ResponseMode;
  idempotencyKey?: string;
  version?: VersionRequest;
  from?: { run_id: string; node_id: string };
};

export function presentWorkflow({ workspace_id: _ws, ...visible }: WorkflowDoc): Workflow {
  // Docs projected before publishing existed lack the fields: never published.
  return { ...visible, published_version: visible.published_version ?? null, published_at: visible.published_at ?? null };
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

  /** The graph to save: the client's, a template's built for the knowledge bases it names (which the key must read), or with neither the default one. */
  async function graphOf(principal: Principal, input: WorkflowInput): Promise<WorkflowGraph> {
    if (input.template === 'knowledge-qa') return knowledgeQaGraph(input.knowledge_base_id!, input.model);
    if (input.template === 'http-lookup') return httpLookupGraph(input.knowledge_base_id!, input.lookup_url!, input.model);
    if (input.template === 'summarise-each') return summariseEachGraph(input.knowledge_base_id!, input.model);
    if (input.template !== 'intent-routing') return input.graph ?? defaultGraph();
    const routes = [];
    for (const [i, kbId] of (input.knowledge_base_ids ?? []).entries()) {
      requireKnowledgeBaseAccess(principal, kbId);
      const kb = await ctx.readModels.get<KnowledgeBaseDoc>('knowledge_bases', kbId);
      if (!kb || kb.workspace_id !== principal.workspaceId) throw resourceNotFound('knowledge_base', kbId, `knowledge_base_ids.${i}`);
      routes.push({ knowledgeBaseId: kbId, name: kb.name, description: kb.description });
    }
    return intentRoutingGraph(routes, input.model);
  }

  /** The version a request names (resolveVersion) and its graph: the draft's from the read model, an older one from the stream. */
  async function versionFor(principal: Principal, workflowId: string, wanted: VersionRequest | undefined): Promise<{ version: number; graph: WorkflowGraph }> {
    const wf = await workflow(principal, workflowId);
    const resolved = resolveVersion(wf.version, wf.published_version ?? null, wanted);
    if (!resolved.ok) throw badRequest('version_not_found', resolved.message, 'version');
    if (resolved.version === wf.version) return { version: wf.version, graph: wf.graph };
    const saved = versionsOf(await workflowEvents(workflowId)).find((v) => v.version === resolved.version);
    if (!saved) throw badRequest('version_not_found', `Workflow ${workflowId} has no version ${resolved.version}.`, 'version');
    // The key must read what that version reads, as it must for the draft (workflow()).
    requireKnowledgeBasesAccess(principal, knowledgeBasesOf(saved.graph));
    return { version: resolved.version, graph: saved.graph };
  }

  /**
   * What a run from `from.node_id` may take from the earlier run: the outputs of the nodes before
   * that node (not it, nor any node after it) that succeeded there. The earlier run must be one of
   * this workflow's that the key may read; the node must be in the graph about to run.
   */
  async function reusable(principal: Principal, workflowId: string, graph: WorkflowGraph, from: { run_id: string; node_id: string }) {
    const earlier = await ctx.readModels.get<WorkflowRunDoc>('workflow_runs', from.run_id);
    if (!earlier || earlier.workspace_id !== principal.workspaceId || earlier.workflow_id !== workflowId) throw resourceNotFound('workflow_run', from.run_id, 'from.run_id');
    requireProvenanceAccess(principal, await knowledgeBasesOfRun(earlier));
    if (!graph.nodes.some((node) => node.id === from.node_id)) throw badRequest('node_not_found', `from.node_id: this version of the workflow has no node '${from.node_id}'`, 'from.node_id');
    const again = fromNodeOn(graph, from.node_id);
    const inGraph = new Set(graph.nodes.map((node) => node.id));
    const nodeIds = earlier.node_runs.filter((n) => n.status === 'succeeded' && inGraph.has(n.node_id) && !again.has(n.node_id)).map((n) => n.node_id);
    return { runId: earlier.id, nodeIds, inputs: earlier.inputs, knowledgeBaseIds: (await knowledgeBasesOfRun(earlier)) ?? [] };
  }

  /** The key may read every saved version `which` picks (a command touching older versions than the draft), or 403 naming a knowledge base. */
  async function requireVersionsAccess(principal: Principal, id: string, which: (version: number) => boolean) {
    if (principal.knowledgeBaseIds === null) return;
    for (const v of versionsOf(await workflowEvents(id))) if (which(v.version)) requireKnowledgeBasesAccess(principal, knowledgeBasesOf(v.graph));
  }

  /** The workflow's stream, for what the read model keeps only the latest of (versions). */
  async function workflowEvents(id: string) {
    const streamId = workflowDecider.streamId(id);
    return (await ctx.store.readStream(streamId)).filter((event) => workflowDecider.isEvent(event));
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

    checkReferences,

    graphFor: async (principal: Principal, id: string, wanted: VersionRequest) => (await versionFor(principal, id, wanted)).graph,

    /** `expectedVersion` (If-Match): the version the client edited; a save made since is refused (409 concurrent_modification), nothing lost. */
    async replace(principal: Principal, id: string, input: { name: string; description?: string | null; graph: WorkflowGraph }, expectedVersion?: number, correlationId?: string) {
      await workflow(principal, id);
      await checkReferences(principal, input.graph);
      const result = await handleCommand(ctx.store, workflowDecider, id, {
        type: 'UpdateWorkflow',
        data: { workflow_id: id, workspace_id: principal.workspaceId, name: input.name, description: input.description ?? null, graph: input.graph, expected_version: expectedVersion },
        metadata: commandMetadata(ctx, principal.keyId, correlationId),
      });
      await settled(ctx, result);
      return presentWorkflow(await workflow(principal, id));
    },

    /**
     * The draft becomes the version that runs by default; publishing it again records nothing. It
     * touches the draft (workflow()) and the version it replaces: the key must read both.
     */
    async publish(principal: Principal, id: string, correlationId?: string) {
      const wf = await workflow(principal, id);
      const replaced = wf.published_version ?? null;
      if (replaced !== null && replaced !== wf.version) await requireVersionsAccess(principal, id, (v) => v === replaced);
      const result = await handleCommand(ctx.store, workflowDecider, id, {
        type: 'PublishWorkflow',
        data: { workflow_id: id, workspace_id: principal.workspaceId },
        metadata: commandMetadata(ctx, principal.keyId, correlationId),
      });
      await settled(ctx, result);
      return presentWorkflow(await workflow(principal, id));
    },

    /**
     * Every saved version, newest first, with when it was published: those the key may read, as
     * running one (versionFor) asks; a version naming another knowledge base is left out.
     */
    async versions(principal: Principal, id: string) {
      await workflow(principal, id);
      const readable = visibleTo(principal, (v: { graph: WorkflowGraph }) => knowledgeBasesOf(v.graph));
      const versions = versionsOf(await workflowEvents(id))
        .filter((v) => readable?.(v) ?? true)
        .reverse();
      return { object: 'list' as const, data: versions.map((v) => ({ object: 'workflow_version' as const, workflow_id: id, ...v })) };
    },

    /** A workflow's runs, newest first (those the key may read). */
    async runs(principal: Principal, id: string, page: PageRequest) {
      const wf = await workflow(principal, id);
      // Runs recorded before their knowledge bases were kept belong to the workflow's current ones (knowledgeBasesOfRun).
      const readable = visibleTo(principal, (doc: WorkflowRunDoc) => doc.knowledge_base_ids ?? knowledgeBasesOf(wf.graph));
      return findPage(ctx.readModels, 'workflow_runs', { workspace_id: principal.workspaceId, workflow_id: id }, page, { present: presentRun, visible: readable });
    },

    async remove(principal: Principal, id: string, correlationId?: string) {
      await workflow(principal, id);
      // Deleting touches every version, not only the draft.
      await requireVersionsAccess(principal, id, () => true);
      await refuseWhileAgentsUse(ctx.readModels, principal, { workflowId: id }, `workflow '${id}'`);
      const result = await handleCommand(ctx.store, workflowDecider, id, {
        type: 'DeleteWorkflow',
        data: { workflow_id: id, workspace_id: principal.workspaceId },
        metadata: commandMetadata(ctx, principal.keyId, correlationId),
      });
      await settled(ctx, result);
      return { id, object: 'workflow.deleted', deleted: true };
    },

    /**
     * Checks the inputs against the start node of the version asked for (the published one, else
     * the draft: resolveVersion) and appends WorkflowRunRequested; the runner consumer executes
     * it. `from`: run again from a node of an earlier run, reusing what the nodes before it
     * recorded (and, when no inputs are given, its inputs). A retry with the same Idempotency-Key
     * gets the first run back.
     */
    async requestRun(principal: Principal, workflowId: string, input: RunRequest) {
      const { version, graph } = await versionFor(principal, workflowId, input.version);
      const reuse = input.from ? await reusable(principal, workflowId, graph, input.from) : undefined;
      const start = graph.nodes.find((n) => n.type === 'start');
      if (start?.type !== 'start') throw new Error(`workflow ${workflowId} has no start node`);
      const given = reuse && Object.keys(input.inputs ?? {}).length === 0 ? reuse.inputs : input.inputs;
      const checked = validateInputs(start.config, given ?? {});
      if (!checked.ok) throw badRequest('invalid_input', checked.message, checked.param);
      const fingerprint = createHash('sha256').update(JSON.stringify([workflowId, version, checked.values, input.mode, input.from ?? null])).digest('hex');
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
          workflow_version: version,
          workspace_id: principal.workspaceId,
          inputs: checked.values,
          response_mode: input.mode,
          // Its outputs are built from what its nodes retrieve: the run's provenance (provenance.ts).
          // A run from a node also carries what the outputs it reuses were built from.
          knowledge_base_ids: provenanceOf([...knowledgeBasesOf(graph), ...(reuse?.knowledgeBaseIds ?? [])]),
          ...(reuse && { reuse: { run_id: reuse.runId, node_ids: reuse.nodeIds } }),
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
