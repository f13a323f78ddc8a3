import { z } from 'zod';
import { MAX_NODE_OUTPUT_BYTES, outputTooLarge, recordedBytes } from '../limits.ts';
import { renderValue } from '../templates.ts';
import { defineNodeType, lookup, NodeFailure, template } from './node-type.ts';

export const MAX_ITEMS = 1000;
export const MAX_PARALLELISM = 10;
/** The inputs an iteration gives its sub-graph's start: `item` always (it must declare it), `index` (0-based) when declared. */
export const ITERATION_INPUTS = ['item', 'index'] as const;

/**
 * The sub-graph as the client writes it. Its nodes are only shaped here (a node type's config is
 * checked against that type's schema, and the whole sub-graph as a graph, by graph.ts on save):
 * this folder may not import the node union of schemas/workflow.ts, which is built from it.
 */
const SubNode = z.strictObject({
  id: z.string().min(1).max(64),
  type: z.string().min(1).max(64),
  timeout_ms: z.int().min(100).max(600_000).optional(),
  config: z.record(z.string(), z.unknown()),
});
const SubEdge = z.strictObject({ from: z.string().min(1).max(64), to: z.string().min(1).max(64), when: z.union([z.boolean(), z.string().min(1).max(100)]).optional() });
export const Subgraph = z.strictObject({ nodes: z.array(SubNode).min(1).max(50), edges: z.array(SubEdge).max(150) });

export const IterationConfig = z.strictObject({
  /** A list: a reference to one (`{{split.output}}` holding an array), or a template rendering to a JSON array. */
  items: template,
  graph: Subgraph,
  /** Items run at once; 1 keeps them in order one after the other. */
  parallelism: z.int().min(1).max(MAX_PARALLELISM).default(1),
});
export type IterationConfig = z.infer<typeof IterationConfig>;

/**
 * Runs its sub-graph once per item, the sub-graph's start getting the item as input `item` (and its
 * position as `index` when it declares one), so inside it the item is `{{start.item}}` (start being
 * the sub-graph's start node's id). The sub-graph sees only its own nodes; what else it needs goes
 * into the items. `results` holds each item's run outputs in item order: what its end node names,
 * or `{answer}` from a direct_reply. The first item to fail fails the node, naming the item.
 */
export const iteration = defineNodeType({
  type: 'iteration',
  config: IterationConfig,
  outputs: () => ['results'],
  templates: ['items'],
  subgraph: 'graph',
  async run({ config, scope, services, signal }) {
    const items = listOf(renderValue(config.items, lookup(scope)));
    const withIndex = declaresInput(config.graph, 'index');
    const results: unknown[] = new Array(items.length);
    // Counted as they come, so that 1,000 large results fail at the limit rather than all be held first.
    let bytes = 2 + items.length;
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < items.length; i = next++) {
        signal.throwIfAborted();
        const inputs = withIndex ? { item: items[i], index: i } : { item: items[i] };
        try {
          results[i] = await services.runSubgraph(config.graph, inputs, signal);
          bytes += recordedBytes(results[i]);
          if (bytes > MAX_NODE_OUTPUT_BYTES) {
            const { code, message } = outputTooLarge(`the iteration's results, by item ${i}, came to`, bytes);
            throw new NodeFailure(code, message);
          }
        } catch (error) {
          if (error instanceof NodeFailure && error.code === 'output_too_large' && bytes > MAX_NODE_OUTPUT_BYTES) throw error;
          if (error instanceof NodeFailure) throw new NodeFailure(error.code, `item ${i}: ${error.message}`);
          throw error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(config.parallelism, items.length) }, worker));
    return { results };
  },
});

function listOf(value: unknown): unknown[] {
  let list = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value);
    } catch {
      throw new NodeFailure('invalid_items', `items must be a list, but rendered to text that is not JSON: ${value.slice(0, 100)}`);
    }
  }
  if (!Array.isArray(list)) throw new NodeFailure('invalid_items', `items must be a list, but is ${list === null || list === undefined ? 'empty' : typeof list}`);
  if (list.length > MAX_ITEMS) throw new NodeFailure('invalid_items', `items has ${list.length} entries; at most ${MAX_ITEMS} are run`);
  return list;
}

/** Whether the sub-graph's start declares this input (the config is a shaped sub-graph, not yet a parsed one). */
export function declaresInput(graph: z.infer<typeof Subgraph>, name: string): boolean {
  const start = graph.nodes.find((node) => node.type === 'start');
  const inputs = start?.config.inputs;
  return Array.isArray(inputs) && inputs.some((input: unknown) => (input as { name?: unknown })?.name === name);
}
