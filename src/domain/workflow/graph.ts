import type { WorkflowGraph, WorkflowNode } from '../../../schemas/workflow.ts';
import { branchEdgeFaults } from './graph-branches.ts';
import { parseSubgraph, subgraphInputFaults } from './graph-subgraphs.ts';
import { describeOutputs, ENTRY_TYPES, isReplyType, namedIn, nodeType, outputFields, REPLY_TYPES, templateFields } from './nodes/index.ts';
import { referencesIn } from './templates.ts';

export { templateFields } from './nodes/index.ts';

export type GraphFaultCode =
  | 'start_count'
  | 'duplicate_node_id'
  | 'unknown_node'
  | 'start_has_incoming'
  | 'condition_edges'
  | 'cycle'
  | 'unreachable'
  | 'no_reply'
  | 'self_reference'
  | 'unresolved_reference'
  | 'invalid_subgraph';

/** `node` is the node the client has to change, or null when the fault is the graph as a whole. */
export type GraphFault = { node: string | null; code: GraphFaultCode; message: string };

/**
 * All faults at once, so a client can fix a graph in one round trip. What each node type allows
 * (entry, branch, reply, outputs, templates) comes from its descriptor (./nodes/). Checks that depend on a
 * single start (reachability, a reply) are skipped while the start count is wrong, since every
 * node would otherwise be reported as well.
 */
export function validateGraph(graph: WorkflowGraph): GraphFault[] {
  const index = indexNodes(graph.nodes);
  const faults: GraphFault[] = [...index.duplicates];
  const edges = graph.edges.filter((edge) => index.byId.has(edge.from) && index.byId.has(edge.to));
  const starts = graph.nodes.filter((node) => nodeType(node.type).entry === true);

  faults.push(...startCountFaults(starts));
  faults.push(...unknownNodeFaults(graph, index.byId));
  faults.push(...startIncomingFaults(starts, edges));
  faults.push(...branchEdgeFaults(graph.nodes, edges));
  faults.push(...cycleFaults(index.order, edges));
  const start = starts.length === 1 ? starts[0] : undefined;
  if (start) faults.push(...reachabilityFaults(start, index, edges));
  faults.push(...referenceFaults(index, edges));
  faults.push(...graph.nodes.flatMap(subgraphFaults));
  return faults;
}

/** A sub-graph (an iteration's) is a graph of its own, checked as one; its faults name the node holding it. */
function subgraphFaults(node: WorkflowNode): GraphFault[] {
  const parsed = parseSubgraph(node);
  if (parsed === undefined) return [];
  if (!parsed.ok) return [parsed.fault];
  const inner = validateGraph(parsed.graph).map((fault) => ({
    node: node.id,
    code: fault.code,
    message: `in the sub-graph of ${node.type} '${node.id}': ${fault.message}`,
  }));
  return [...inner, ...subgraphInputFaults(node, parsed.graph)];
}

/** The graph's nodes and those of the sub-graphs inside them, however deep: what names models and knowledge bases. */
export function allNodes(graph: WorkflowGraph): WorkflowNode[] {
  return nodesAt(graph).map(({ node }) => node);
}

/** Each node with where a fault about it points: `graph.nodes.loop.config.graph.nodes.llm` for one inside iteration 'loop'. */
export function nodesAt(graph: WorkflowGraph, prefix = 'graph'): { node: WorkflowNode; param: string }[] {
  return graph.nodes.flatMap((node) => {
    const param = `${prefix}.nodes.${node.id}`;
    const parsed = parseSubgraph(node);
    const field = nodeType(node.type).subgraph ?? 'graph';
    return [{ node, param }, ...(parsed?.ok ? nodesAt(parsed.graph, `${param}.config.${field}`) : [])];
  });
}

/**
 * Kahn's algorithm, always taking the earliest-listed ready node so the order is reproducible.
 * Nodes on a cycle (and those only reachable through one) are left out; validateGraph reports them.
 */
export function topologicalOrder(graph: WorkflowGraph): string[] {
  const { order, byId } = indexNodes(graph.nodes);
  const edges = graph.edges.filter((edge) => byId.has(edge.from) && byId.has(edge.to));
  const indegree = new Map(order.map((id) => [id, 0]));
  for (const edge of edges) indegree.set(edge.to, (indegree.get(edge.to) ?? 0) + 1);
  const placed: string[] = [];
  const done = new Set<string>();
  for (;;) {
    const next = order.find((id) => !done.has(id) && indegree.get(id) === 0);
    if (next === undefined) return placed;
    placed.push(next);
    done.add(next);
    for (const edge of edges) if (edge.from === next) indegree.set(edge.to, (indegree.get(edge.to) ?? 0) - 1);
  }
}

type NodeIndex = { byId: Map<string, WorkflowNode>; order: string[]; duplicates: GraphFault[] };

/** The first node listed under an id wins; later ones are reported and otherwise ignored. */
function indexNodes(nodes: readonly WorkflowNode[]): NodeIndex {
  const byId = new Map<string, WorkflowNode>();
  const duplicates: GraphFault[] = [];
  for (const node of nodes) {
    if (byId.has(node.id)) {
      duplicates.push({ node: node.id, code: 'duplicate_node_id', message: `node id '${node.id}' is used by more than one node; ids must be unique` });
    } else {
      byId.set(node.id, node);
    }
  }
  return { byId, order: [...byId.keys()], duplicates };
}

function startCountFaults(starts: readonly WorkflowNode[]): GraphFault[] {
  if (starts.length === 0) return [{ node: null, code: 'start_count', message: `the graph needs exactly one ${ENTRY_TYPES} node, and has none` }];
  return starts.slice(1).map((node) => ({
    node: node.id,
    code: 'start_count',
    message: `the graph needs exactly one ${ENTRY_TYPES} node, but '${node.id}' is another one besides '${starts[0]?.id}'`,
  }));
}

function unknownNodeFaults(graph: WorkflowGraph, byId: ReadonlyMap<string, WorkflowNode>): GraphFault[] {
  return graph.edges.flatMap((edge, i) =>
    [edge.from, edge.to]
      .filter((id) => !byId.has(id))
      .map((id) => ({ node: id, code: 'unknown_node' as const, message: `edges[${i}] (${edge.from} → ${edge.to}) names '${id}', which is not a node in the graph` })),
  );
}

function startIncomingFaults(starts: readonly WorkflowNode[], edges: WorkflowGraph['edges']): GraphFault[] {
  return starts.flatMap((start) =>
    edges
      .filter((edge) => edge.to === start.id)
      .map((edge) => ({ node: start.id, code: 'start_has_incoming' as const, message: `${start.type} node '${start.id}' must not have incoming edges, but '${edge.from}' → '${start.id}' is one` })),
  );
}

/** Depth-first search; the target of every back edge lies on a cycle, so it is the node named. */
function cycleFaults(order: readonly string[], edges: WorkflowGraph['edges']): GraphFault[] {
  const successors = adjacency(order, edges, 'forward');
  const state = new Map<string, 'active' | 'done'>();
  const cycles: string[][] = [];
  const named = new Set<string>();
  const visit = (path: readonly string[]): void => {
    const id = path[path.length - 1] ?? '';
    state.set(id, 'active');
    for (const next of successors.get(id) ?? []) {
      if (state.get(next) === 'active' && !named.has(next)) {
        named.add(next);
        cycles.push([...path.slice(path.indexOf(next)), next]);
      } else if (!state.has(next)) {
        visit([...path, next]);
      }
    }
    state.set(id, 'done');
  };
  for (const id of order) if (!state.has(id)) visit([id]);
  return cycles.map((cycle) => ({
    node: cycle[0] ?? null,
    code: 'cycle',
    message: `the graph must be acyclic, but ${cycle.map((id) => `'${id}'`).join(' → ')} is a cycle`,
  }));
}

function reachabilityFaults(start: WorkflowNode, index: NodeIndex, edges: WorkflowGraph['edges']): GraphFault[] {
  const reached = reachableFrom(start.id, adjacency(index.order, edges, 'forward')).add(start.id);
  const from = `${start.type} node '${start.id}'`;
  const faults: GraphFault[] = index.order
    .filter((id) => !reached.has(id))
    .map((id) => ({ node: id, code: 'unreachable', message: `node '${id}' cannot be reached from ${from}; connect it or remove it` }));
  const isReply = (node: WorkflowNode | undefined) => node !== undefined && isReplyType(nodeType(node.type));
  const replies = index.order.filter((id) => reached.has(id) && isReply(index.byId.get(id)));
  if (replies.length === 0) {
    faults.push({ node: null, code: 'no_reply', message: `no ${REPLY_TYPES} node can be reached from ${from}, so a run would produce no answer` });
  }
  return faults;
}

/**
 * A reference must name an ancestor: a node with a path to the referring one, so it has finished
 * before the referrer starts. A dominator (on every path from start) is not required: behind a
 * condition, an ancestor on the branch not taken has no output and its reference renders empty.
 */
function referenceFaults(index: NodeIndex, edges: WorkflowGraph['edges']): GraphFault[] {
  const predecessors = adjacency(index.order, edges, 'backward');
  const faults: GraphFault[] = [];
  for (const node of index.byId.values()) {
    const ancestors = reachableFrom(node.id, predecessors);
    for (const { field: configField, template } of templateFields(node)) {
      for (const ref of referencesIn(template)) {
        const where = `node '${node.id}' references ${ref.raw} in ${configField}`;
        const target = index.byId.get(ref.nodeId);
        if (ref.nodeId === node.id) {
          faults.push({ node: node.id, code: 'self_reference', message: `${where}, but a node cannot use its own output` });
        } else if (!target) {
          faults.push({ node: node.id, code: 'unresolved_reference', message: `${where}, but there is no node '${ref.nodeId}'` });
        } else if (!ancestors.has(target.id)) {
          faults.push({ node: node.id, code: 'unresolved_reference', message: `${where}, but '${target.id}' does not run before '${node.id}'; add a path from '${target.id}' to '${node.id}'` });
        } else if (!outputFields(target).includes(ref.field)) {
          faults.push({ node: node.id, code: 'unresolved_reference', message: `${where}, but ${describeOutputs(target)}` });
        }
      }
    }
  }
  return faults;
}

function adjacency(order: readonly string[], edges: WorkflowGraph['edges'], direction: 'forward' | 'backward'): Map<string, string[]> {
  const map = new Map(order.map((id) => [id, [] as string[]]));
  for (const edge of edges) {
    const [from, to] = direction === 'forward' ? [edge.from, edge.to] : [edge.to, edge.from];
    map.get(from)?.push(to);
  }
  return map;
}

/** Nodes reachable from `id` by at least one step; `id` itself only when it lies on a cycle. */
function reachableFrom(id: string, neighbours: ReadonlyMap<string, readonly string[]>): Set<string> {
  const seen = new Set<string>();
  const stack = [...(neighbours.get(id) ?? [])];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (seen.has(next)) continue;
    seen.add(next);
    stack.push(...(neighbours.get(next) ?? []));
  }
  return seen;
}

/** The node and every node after it: what a run from that node computes again (the rest it may reuse). */
export function fromNodeOn(graph: WorkflowGraph, nodeId: string): Set<string> {
  const order = graph.nodes.map((node) => node.id);
  return reachableFrom(nodeId, adjacency(order, graph.edges, 'forward')).add(nodeId);
}

/**
 * The knowledge bases a graph reads, each once: what a workflow and its runs belong to for access.
 * A node names one in a config field its type declares (`names.knowledgeBases`).
 */
export function knowledgeBasesOf(graph: WorkflowGraph): string[] {
  return [...new Set(allNodes(graph).flatMap((node) => namedIn(node, 'knowledgeBases').map(({ id }) => id)))];
}
