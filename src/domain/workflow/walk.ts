import type { WorkflowGraph, WorkflowNode } from '../../../schemas/workflow.ts';
import { nodeType } from './nodes/index.ts';
import type { NodeOutputs } from './nodes/node-type.ts';

/**
 * How a run walks its graph, shared by the runner (which records every step) and a sub-graph's run
 * inside an iteration (which records none). A node runs when one of its incoming edges is live:
 * its source ran and, out of a branch (condition, question_classifier), the edge's `when` is the
 * branch's output. The entry (start) node has no incoming edges and always runs.
 */
export function isLive(node: WorkflowNode, graph: WorkflowGraph, ran: ReadonlyMap<string, NodeOutputs>): boolean {
  if (nodeType(node.type).entry) return true;
  return graph.edges.some((edge) => {
    if (edge.to !== node.id) return false;
    const source = ran.get(edge.from);
    const from = graph.nodes.find((n) => n.id === edge.from);
    if (!source || !from) return false;
    const branchOn = nodeType(from.type).branchOn;
    return branchOn === undefined || edge.when === source[branchOn];
  });
}

/**
 * The run's outputs from what its nodes produced, in the order they ran: `answer` from the last
 * reply (direct_reply) to run, `citations` from the last node giving them, and every output of each
 * end node that ran. Undefined when neither a reply nor an end ran: the run produced nothing.
 */
export function runOutputsOf(graph: WorkflowGraph, ran: ReadonlyMap<string, NodeOutputs>): Record<string, unknown> | undefined {
  const types = new Map(graph.nodes.map((node) => [node.id, node.type]));
  let answer: unknown;
  let citations: unknown;
  let named: Record<string, unknown> | undefined;
  for (const [id, outputs] of ran) {
    const gives = nodeType(types.get(id) ?? '').runOutputs;
    if (gives?.answer !== undefined) answer = outputs[gives.answer];
    if (gives?.citations !== undefined) citations = outputs[gives.citations];
    if (gives?.all) named = { ...named, ...outputs };
  }
  if (answer === undefined && named === undefined) return undefined;
  return { ...(answer !== undefined && { answer }), ...(citations !== undefined && { citations }), ...named };
}
