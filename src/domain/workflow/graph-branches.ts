import type { WorkflowGraph, WorkflowNode } from '../../../schemas/workflow.ts';
import { BRANCH_TYPES, branchValues } from './nodes/index.ts';

type BranchFault = { node: string; code: 'condition_edges'; message: string };

const choices = (values: readonly (boolean | string)[]) => values.map((value) => `when: ${JSON.stringify(value)}`).join(' or ');

/**
 * Edges out of a branching node (condition: true or false; question_classifier: its class names)
 * must each carry a `when` it can produce, and it needs at least one; edges out of any other node
 * must carry none, since nothing would pick them.
 */
export function branchEdgeFaults(nodes: readonly WorkflowNode[], edges: WorkflowGraph['edges']): BranchFault[] {
  return nodes.flatMap((node) => {
    const outgoing = edges.filter((edge) => edge.from === node.id);
    const values = branchValues(node);
    const fault = (message: string): BranchFault => ({ node: node.id, code: 'condition_edges', message });
    if (values === undefined) {
      return outgoing
        .filter((edge) => edge.when !== undefined)
        .map((edge) => fault(`edge '${node.id}' → '${edge.to}' carries when, but only edges out of a ${BRANCH_TYPES} node may; '${node.id}' is ${node.type}`));
    }
    if (outgoing.length === 0) return [fault(`${node.type} '${node.id}' has no outgoing edges; add at least one with ${choices(values)}`)];
    return outgoing.flatMap((edge) => {
      if (edge.when === undefined) return [fault(`edge '${node.id}' → '${edge.to}' leaves a ${node.type}, so it must carry ${choices(values)}`)];
      if (!values.includes(edge.when)) {
        return [fault(`edge '${node.id}' → '${edge.to}' carries when: ${JSON.stringify(edge.when)}, which ${node.type} '${node.id}' never gives; use ${choices(values)}`)];
      }
      return [];
    });
  });
}
