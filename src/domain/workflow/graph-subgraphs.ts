import { WorkflowGraph, type WorkflowNode } from '../../../schemas/workflow.ts';
import { ITERATION_INPUTS } from './nodes/iteration.ts';
import { nodeType, subgraphOf } from './nodes/index.ts';

type SubgraphFault = { node: string; code: 'invalid_subgraph'; message: string };
export type ParsedSubgraph = { ok: true; graph: WorkflowGraph } | { ok: false; fault: SubgraphFault };

/**
 * A node's sub-graph (an iteration's) parsed as a graph: its nodes' configs by their types'
 * schemas, defaults filled in. The node's own schema only shapes it (nodes/iteration.ts says why),
 * so this is where a sub-node's bad config is found, named by the path inside the node's config.
 */
export function parseSubgraph(node: WorkflowNode): ParsedSubgraph | undefined {
  const raw = subgraphOf(node);
  if (raw === undefined) return undefined;
  const field = nodeType(node.type).subgraph ?? 'graph';
  const parsed = WorkflowGraph.safeParse(raw);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    const path = [field, ...(issue?.path ?? [])].join('.');
    return { ok: false, fault: { node: node.id, code: 'invalid_subgraph', message: `${node.type} '${node.id}': config.${path} ${issue?.message ?? 'is invalid'}` } };
  }
  return { ok: true, graph: parsed.data };
}

/** The sub-graph's start takes what the iteration gives (`item`, and `index` if it wants it) and nothing it does not. */
export function subgraphInputFaults(node: WorkflowNode, graph: WorkflowGraph): SubgraphFault[] {
  const start = graph.nodes.find((n) => nodeType(n.type).entry === true);
  if (!start || start.type !== 'start') return [];
  const names = start.config.inputs.map((input) => input.name);
  const faults: SubgraphFault[] = [];
  const fault = (message: string) => faults.push({ node: node.id, code: 'invalid_subgraph', message: `${node.type} '${node.id}': ${message}` });
  if (!names.includes('item')) fault(`the sub-graph's start '${start.id}' must declare input 'item', which receives each item`);
  for (const name of names.filter((n) => !(ITERATION_INPUTS as readonly string[]).includes(n))) {
    fault(`the sub-graph's start '${start.id}' declares input '${name}', but an iteration gives only ${ITERATION_INPUTS.join(' and ')}`);
  }
  return faults;
}
