import { z } from 'zod';
import { NODE_TYPES, type NodeTypeName, type NodeTypes } from '../src/domain/workflow/nodes/index.ts';

/**
 * The shape of a workflow graph. Only what one node or edge can say about itself is checked here;
 * rules that need the whole graph (one start, acyclic, references resolvable, a reply reachable)
 * live in src/domain/workflow/graph.ts so they can name the offending node in their message.
 * The node types, each with its config schema, are the map of src/domain/workflow/nodes/.
 */

export const NODE_ID_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;
export const DEFAULT_TIMEOUT_MS = 30_000;
export const MAX_NODES = 100;
export const MAX_EDGES = 300;

const nodeId = z.string().regex(NODE_ID_PATTERN, 'must start with a lowercase letter and use only a-z, 0-9 and _ (at most 64 characters)');

export { WorkflowInput } from '../src/domain/workflow/inputs.ts';

/**
 * timeout_ms sits beside config rather than inside it: it is a concern of the runner, the same for
 * every type, so the per-type configs stay exactly what the node itself needs.
 */
const nodeBase = {
  id: nodeId,
  timeout_ms: z.int().min(100).max(600_000).default(DEFAULT_TIMEOUT_MS),
};

const variant = <T extends string, C extends z.ZodType>(type: T, config: C) => z.strictObject({ ...nodeBase, type: z.literal(type), config });
type Variant = { [T in NodeTypeName]: z.ZodObject<typeof nodeBase & { type: z.ZodLiteral<T>; config: NodeTypes[T]['config'] }, z.core.$strict> }[NodeTypeName];
const variants = Object.values(NODE_TYPES).map((nodeType) => variant(nodeType.type, nodeType.config)) as unknown as [Variant, ...Variant[]];

/** One variant per entry of the node-type map, in its order. */
export const WorkflowNode = z.discriminatedUnion('type', variants);
export type WorkflowNode = z.infer<typeof WorkflowNode>;
export type WorkflowNodeType = WorkflowNode['type'];
export type NodeOfType<T extends WorkflowNodeType> = Extract<WorkflowNode, { type: T }>;

/**
 * `when` selects the branch of a branching node: true or false out of a condition, a class name out
 * of a question_classifier; edges out of other nodes are always taken.
 */
export const WorkflowEdge = z.strictObject({ from: nodeId, to: nodeId, when: z.union([z.boolean(), z.string().min(1).max(100)]).optional() });
export type WorkflowEdge = z.infer<typeof WorkflowEdge>;

export const WorkflowGraph = z.strictObject({
  nodes: z.array(WorkflowNode).min(1).max(MAX_NODES),
  edges: z.array(WorkflowEdge).max(MAX_EDGES),
});
/** After parsing: defaults (timeout_ms, inputs[].required) are filled in. */
export type WorkflowGraph = z.infer<typeof WorkflowGraph>;
/** What a client may send: defaults may be left out. */
export type WorkflowGraphInput = z.input<typeof WorkflowGraph>;
