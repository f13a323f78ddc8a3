import type { CanvasGraph } from './graph.ts';
import type { GraphFault } from './workflow-api.ts';

/**
 * The node a 400's `param` names: `graph.nodes.<node id>.config.prompt` (or, as zod names array
 * items, `graph.nodes.<index>…`); null when it names no node (the graph as a whole, an edge).
 */
export function nodeOfParam(param: string | null, graph: CanvasGraph): string | null {
  const match = param === null ? null : /^graph\.nodes\.([^.]+)/.exec(param);
  if (!match) return null;
  const named = match[1]!;
  if (graph.nodes.some((node) => node.id === named)) return named;
  return /^\d+$/.test(named) ? (graph.nodes[Number(named)]?.id ?? null) : null;
}

/** The messages about each node, for its error style and its panel. */
export function faultsByNode(faults: readonly GraphFault[]): Record<string, string[]> {
  const byNode: Record<string, string[]> = {};
  for (const fault of faults) if (fault.node_id) (byNode[fault.node_id] ??= []).push(fault.message);
  return byNode;
}
