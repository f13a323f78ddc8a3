import { z } from 'zod';
import { ResponseMode } from '../events/workflow-run.ts';
import { WorkflowDoc } from '../read-models/workflows.ts';
import { WorkflowRunDoc } from '../read-models/workflow-runs.ts';
import { WorkflowGraph } from '../workflow.ts';

const name = z.string().trim().min(1).max(200);
const description = z.string().max(2000).nullable().optional();

/** Either a graph, or a ready-made template with what it needs (one object, so errors name their field). */
export const CreateWorkflowBody = z
  .strictObject({
    name,
    description,
    graph: WorkflowGraph.optional(),
    template: z.enum(['knowledge-qa', 'intent-routing']).optional(),
    knowledge_base_id: z.string().min(1).max(200).optional(),
    /** intent-routing: the knowledge bases to route between, one class each (their names and descriptions). */
    knowledge_base_ids: z.array(z.string().min(1).max(200)).min(2).max(10).optional(),
    model: z.string().min(1).max(200).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.graph && body.template) ctx.addIssue({ code: 'custom', path: ['template'], message: 'give either graph or template, not both' });
    if (!body.graph && !body.template) ctx.addIssue({ code: 'invalid_type', expected: 'object', path: ['graph'], message: 'give a graph, or template: "knowledge-qa" or "intent-routing"' });
    if (body.template === 'knowledge-qa' && !body.knowledge_base_id) ctx.addIssue({ code: 'invalid_type', expected: 'string', path: ['knowledge_base_id'], message: 'the knowledge-qa template needs a knowledge_base_id' });
    if (body.template === 'intent-routing' && !body.knowledge_base_ids) ctx.addIssue({ code: 'invalid_type', expected: 'array', path: ['knowledge_base_ids'], message: 'the intent-routing template needs knowledge_base_ids (2 to 10)' });
    const stray = (['knowledge_base_id', 'knowledge_base_ids', 'model'] as const).find((field) => body[field] !== undefined && !usedBy(body.template, field));
    if (stray) ctx.addIssue({ code: 'custom', path: [stray], message: body.template ? `not used with template ${body.template}` : 'only used with template' });
  });
export type CreateWorkflowBody = z.infer<typeof CreateWorkflowBody>;

function usedBy(template: CreateWorkflowBody['template'], field: 'knowledge_base_id' | 'knowledge_base_ids' | 'model'): boolean {
  if (template === undefined) return false;
  return field === 'model' || (template === 'knowledge-qa' ? field === 'knowledge_base_id' : field === 'knowledge_base_ids');
}

export const ReplaceWorkflowBody = z.strictObject({ name, description, graph: WorkflowGraph });

export const RunWorkflowBody = z.strictObject({
  inputs: z.record(z.string(), z.unknown()).default({}),
  response_mode: ResponseMode.default('blocking'),
});

export const Workflow = WorkflowDoc.omit({ workspace_id: true });
export type Workflow = z.infer<typeof Workflow>;

/** A run as the API shows it: the read model less who may read it and how it was asked for. */
export const WorkflowRun = WorkflowRunDoc.omit({ workspace_id: true, response_mode: true, knowledge_base_ids: true }).extend({
  // Documented as open records, as the API always has: a node's fields may grow.
  node_runs: z.array(z.record(z.string(), z.unknown())),
});
export type WorkflowRun = z.infer<typeof WorkflowRun>;
