import { z } from 'zod';
import { ResponseMode } from '../events/workflow-run.ts';
import { WorkflowDoc } from '../read-models/workflows.ts';
import { WorkflowRunDoc } from '../read-models/workflow-runs.ts';
import { WorkflowGraph } from '../workflow.ts';

const name = z.string().trim().min(1).max(200);
const description = z.string().max(2000).nullable().optional();

export const WorkflowTemplate = z.enum(['knowledge-qa', 'intent-routing', 'http-lookup', 'summarise-each']);
export type WorkflowTemplate = z.infer<typeof WorkflowTemplate>;

/** What each template needs besides its name; `model` (the chat model) suits them all. */
const TEMPLATE_FIELDS = {
  'knowledge-qa': ['knowledge_base_id'],
  'intent-routing': ['knowledge_base_ids'],
  'http-lookup': ['knowledge_base_id', 'lookup_url'],
  'summarise-each': ['knowledge_base_id'],
} as const satisfies Record<WorkflowTemplate, readonly string[]>;
const OPTIONAL_FIELDS = ['knowledge_base_id', 'knowledge_base_ids', 'lookup_url', 'model'] as const;

/** A graph, a ready-made template with what it needs (one object, so errors name their field), or neither: the default graph (src/domain/workflow/default-graph.ts). */
export const CreateWorkflowBody = z
  .strictObject({
    name,
    description,
    graph: WorkflowGraph.optional(),
    template: WorkflowTemplate.optional(),
    knowledge_base_id: z.string().min(1).max(200).optional(),
    /** intent-routing: the knowledge bases to route between, one class each (their names and descriptions). */
    knowledge_base_ids: z.array(z.string().min(1).max(200)).min(2).max(10).optional(),
    /** http-lookup: where the question is POSTed as JSON (`{"question": …}`); the answer joins the passages in the prompt. */
    lookup_url: z.url({ protocol: /^https?$/ }).max(2000).optional(),
    model: z.string().min(1).max(200).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.graph && body.template) ctx.addIssue({ code: 'custom', path: ['template'], message: 'give either graph or template, not both' });
    const needs: readonly string[] = body.template ? TEMPLATE_FIELDS[body.template] : [];
    for (const field of needs) {
      if (body[field as keyof typeof body] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: `the ${body.template} template needs ${field}` });
    }
    const stray = OPTIONAL_FIELDS.find((field) => body[field] !== undefined && field !== 'model' && !needs.includes(field));
    if (stray) ctx.addIssue({ code: 'custom', path: [stray], message: body.template ? `not used with template ${body.template}` : 'only used with template' });
    else if (body.model !== undefined && !body.template) ctx.addIssue({ code: 'custom', path: ['model'], message: 'only used with template' });
  });
export type CreateWorkflowBody = z.infer<typeof CreateWorkflowBody>;

export const ReplaceWorkflowBody = z.strictObject({ name, description, graph: WorkflowGraph });

/** Which version runs: "draft" (the latest save), "published", or a version number; by default the published one, else the draft. */
export const VersionField = z.union([z.enum(['draft', 'published']), z.int().min(1)]).optional();

export const RunWorkflowBody = z.strictObject({
  inputs: z.record(z.string(), z.unknown()).default({}),
  response_mode: ResponseMode.default('blocking'),
  version: VersionField,
  /** Run again from this node of an earlier run of this workflow: the nodes before it reuse what they recorded there (and its inputs, when none are given). */
  from: z.strictObject({ run_id: z.string().min(1).max(200), node_id: z.string().min(1).max(200) }).optional(),
});

export const RunNodeBody = z.strictObject({
  /** For each earlier node the node references, the outputs to assume: `{node_id: {field: value}}` (the start node's are the run's inputs). */
  inputs: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
  version: VersionField,
});

export const ValidateWorkflowBody = z.strictObject({ graph: z.unknown() });

const NodeError = z.object({ code: z.string(), message: z.string() }).nullable();

export const WorkflowValidation = z.object({
  object: z.literal('workflow_validation'),
  valid: z.boolean(),
  errors: z.array(z.object({ node_id: z.string().nullable(), code: z.string(), message: z.string(), param: z.string() })),
});

export const WorkflowNodeRun = z.object({
  object: z.literal('workflow_node_run'),
  node_id: z.string(),
  node_type: z.string(),
  status: z.enum(['succeeded', 'failed']),
  inputs: z.record(z.string(), z.unknown()),
  outputs: z.record(z.string(), z.unknown()).nullable(),
  error: NodeError,
  elapsed_ms: z.number(),
});

/** One node attempt of a run (src/domain/workflow/trace.ts). */
export const NodeAttempt = z.object({
  node_id: z.string(),
  node_type: z.string(),
  attempt: z.int(),
  status: z.enum(['running', 'succeeded', 'failed', 'interrupted']),
  inputs: z.record(z.string(), z.unknown()),
  outputs: z.record(z.string(), z.unknown()).nullable(),
  error: NodeError,
  elapsed_ms: z.number().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  reused_from: z.string().nullable(),
});

export const WorkflowTrace = z.object({ object: z.literal('list'), data: z.array(NodeAttempt) });

export const WorkflowVersion = z.object({
  object: z.literal('workflow_version'),
  workflow_id: z.string(),
  version: z.int(),
  name: z.string(),
  description: z.string().nullable(),
  graph: WorkflowGraph,
  saved_at: z.string(),
  published_at: z.string().nullable(),
});

export const Workflow = WorkflowDoc.omit({ workspace_id: true });
export type Workflow = z.infer<typeof Workflow>;

/** A run as the API shows it: the read model less who may read it and how it was asked for. */
export const WorkflowRun = WorkflowRunDoc.omit({ workspace_id: true, response_mode: true, knowledge_base_ids: true }).extend({
  // Documented as open records, as the API always has: a node's fields may grow.
  node_runs: z.array(z.record(z.string(), z.unknown())),
});
export type WorkflowRun = z.infer<typeof WorkflowRun>;
