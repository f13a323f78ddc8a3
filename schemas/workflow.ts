import { z } from 'zod';

/**
 * The shape of a workflow graph. Only what one node or edge can say about itself is checked here;
 * rules that need the whole graph (one start, acyclic, references resolvable, a reply reachable)
 * live in src/domain/workflow/graph.ts so they can name the offending node in their message.
 */

export const NODE_ID_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;
export const DEFAULT_TIMEOUT_MS = 30_000;
export const MAX_NODES = 100;
export const MAX_EDGES = 300;

const nodeId = z.string().regex(NODE_ID_PATTERN, 'must start with a lowercase letter and use only a-z, 0-9 and _ (at most 64 characters)');
/** Input names become template fields, so they must be writable inside `{{start.name}}`. */
const identifier = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be an identifier: letters, digits and _, not starting with a digit (at most 64 characters)');
/** May contain `{{node_id.field}}` references, rendered when the node runs. */
const template = z.string().max(20_000);
const modelId = z.string().min(1).max(200);

export const WorkflowInput = z.strictObject({
  name: identifier,
  type: z.enum(['string', 'number', 'boolean', 'object']),
  required: z.boolean().default(true),
  description: z.string().max(1000).optional(),
});
export type WorkflowInput = z.infer<typeof WorkflowInput>;

export const StartConfig = z
  .strictObject({ inputs: z.array(WorkflowInput).max(50) })
  .superRefine((config, ctx) => {
    const seen = new Set<string>();
    config.inputs.forEach((input, i) => {
      if (seen.has(input.name)) ctx.addIssue({ code: 'custom', path: ['inputs', i, 'name'], message: `input '${input.name}' is declared twice` });
      seen.add(input.name);
    });
  });
export type StartConfig = z.infer<typeof StartConfig>;

export const KnowledgeRetrievalConfig = z.strictObject({
  knowledge_base_id: z.string().min(1).max(200),
  query: template,
  top_k: z.int().min(1).max(100).optional(),
  score_threshold: z.number().min(0).max(1).optional(),
  mode: z.enum(['hybrid', 'vector', 'keyword', 'graph']).optional(),
  rerank: z.boolean().optional(),
});
export type KnowledgeRetrievalConfig = z.infer<typeof KnowledgeRetrievalConfig>;

export const LlmConfig = z.strictObject({
  model: modelId,
  system: template.optional(),
  prompt: template,
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: z.int().min(1).max(200_000).optional(),
});
export type LlmConfig = z.infer<typeof LlmConfig>;

export const TemplateConfig = z.strictObject({ template });
export type TemplateConfig = z.infer<typeof TemplateConfig>;

/** Operators that look at `left` alone; the others compare it with `right`. */
export const UNARY_OPERATORS = ['empty', 'not_empty'] as const;

export const ConditionConfig = z
  .strictObject({
    left: template,
    operator: z.enum(['equals', 'not_equals', 'contains', 'empty', 'not_empty']),
    right: template.optional(),
  })
  .superRefine((config, ctx) => {
    const unary = (UNARY_OPERATORS as readonly string[]).includes(config.operator);
    if (!unary && config.right === undefined) {
      ctx.addIssue({ code: 'custom', path: ['right'], message: `is required when operator is ${config.operator}` });
    }
  });
export type ConditionConfig = z.infer<typeof ConditionConfig>;

export const DirectReplyConfig = z.strictObject({ template });
export type DirectReplyConfig = z.infer<typeof DirectReplyConfig>;

/**
 * timeout_ms sits beside config rather than inside it: it is a concern of the runner, the same for
 * every type, so the per-type configs stay exactly what the node itself needs.
 */
const nodeBase = {
  id: nodeId,
  timeout_ms: z.int().min(100).max(600_000).default(DEFAULT_TIMEOUT_MS),
};

export const WorkflowNode = z.discriminatedUnion('type', [
  z.strictObject({ ...nodeBase, type: z.literal('start'), config: StartConfig }),
  z.strictObject({ ...nodeBase, type: z.literal('knowledge_retrieval'), config: KnowledgeRetrievalConfig }),
  z.strictObject({ ...nodeBase, type: z.literal('llm'), config: LlmConfig }),
  z.strictObject({ ...nodeBase, type: z.literal('template'), config: TemplateConfig }),
  z.strictObject({ ...nodeBase, type: z.literal('condition'), config: ConditionConfig }),
  z.strictObject({ ...nodeBase, type: z.literal('direct_reply'), config: DirectReplyConfig }),
]);
export type WorkflowNode = z.infer<typeof WorkflowNode>;
export type WorkflowNodeType = WorkflowNode['type'];
export type NodeOfType<T extends WorkflowNodeType> = Extract<WorkflowNode, { type: T }>;

/** `when` selects the branch of a condition node; edges out of other nodes are always taken. */
export const WorkflowEdge = z.strictObject({ from: nodeId, to: nodeId, when: z.boolean().optional() });
export type WorkflowEdge = z.infer<typeof WorkflowEdge>;

export const WorkflowGraph = z.strictObject({
  nodes: z.array(WorkflowNode).min(1).max(MAX_NODES),
  edges: z.array(WorkflowEdge).max(MAX_EDGES),
});
/** After parsing: defaults (timeout_ms, inputs[].required) are filled in. */
export type WorkflowGraph = z.infer<typeof WorkflowGraph>;
/** What a client may send: defaults may be left out. */
export type WorkflowGraphInput = z.input<typeof WorkflowGraph>;

/** The fields a node of each type produces, i.e. what `{{node_id.field}}` may name. */
export const NODE_OUTPUTS: { readonly [T in WorkflowNodeType]: (config: NodeOfType<T>['config']) => readonly string[] } = {
  start: (config) => config.inputs.map((input) => input.name),
  knowledge_retrieval: () => ['context', 'passages', 'citations', 'answerable', 'coverage'],
  llm: () => ['text'],
  template: () => ['output'],
  condition: () => ['result'],
  direct_reply: () => ['answer'],
};

export function outputFields(node: WorkflowNode): readonly string[] {
  switch (node.type) {
    case 'start':
      return NODE_OUTPUTS.start(node.config);
    case 'knowledge_retrieval':
      return NODE_OUTPUTS.knowledge_retrieval(node.config);
    case 'llm':
      return NODE_OUTPUTS.llm(node.config);
    case 'template':
      return NODE_OUTPUTS.template(node.config);
    case 'condition':
      return NODE_OUTPUTS.condition(node.config);
    case 'direct_reply':
      return NODE_OUTPUTS.direct_reply(node.config);
  }
}
