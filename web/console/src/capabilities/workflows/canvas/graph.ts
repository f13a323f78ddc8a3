/**
 * The workflow graph as the canvas edits it: the API's `{nodes, edges}` with each node's config as
 * plain data. Pure functions only (no React, no I/O), so every edit is a value in the undo history.
 */
export type CanvasNode = { id: string; type: string; config: Record<string, unknown>; timeout_ms?: number };
export type CanvasEdge = { from: string; to: string; when?: boolean | string };
export type CanvasGraph = { nodes: CanvasNode[]; edges: CanvasEdge[] };

export const EMPTY_GRAPH: CanvasGraph = { nodes: [], edges: [] };

/** An edge's identity on the canvas: two edges between the same nodes differ by their `when`. */
export const edgeKey = (edge: CanvasEdge) => `${edge.from}->${edge.to}${edge.when === undefined ? '' : `:${String(edge.when)}`}`;

/** A new node's id: its type, then the first free number (`llm`, `llm_2` …), within the API's id pattern. */
export function freshNodeId(type: string, graph: CanvasGraph): string {
  const taken = new Set(graph.nodes.map((node) => node.id));
  if (!taken.has(type)) return type;
  for (let n = 2; ; n++) if (!taken.has(`${type}_${n}`)) return `${type}_${n}`;
}

export function addNode(graph: CanvasGraph, node: CanvasNode): CanvasGraph {
  return { ...graph, nodes: [...graph.nodes, node] };
}

/** A node and every edge touching it. */
export function removeNode(graph: CanvasGraph, id: string): CanvasGraph {
  return { nodes: graph.nodes.filter((node) => node.id !== id), edges: graph.edges.filter((edge) => edge.from !== id && edge.to !== id) };
}

export function removeEdge(graph: CanvasGraph, key: string): CanvasGraph {
  return { ...graph, edges: graph.edges.filter((edge) => edgeKey(edge) !== key) };
}

/** Joins two nodes; the same edge twice, or a node to itself, changes nothing. */
export function connect(graph: CanvasGraph, edge: CanvasEdge): CanvasGraph {
  if (edge.from === edge.to || graph.edges.some((e) => edgeKey(e) === edgeKey(edge))) return graph;
  const { from, to, when } = edge;
  return { ...graph, edges: [...graph.edges, when === undefined ? { from, to } : { from, to, when }] };
}

export function replaceConfig(graph: CanvasGraph, id: string, config: Record<string, unknown>): CanvasGraph {
  return { ...graph, nodes: graph.nodes.map((node) => (node.id === id ? { ...node, config } : node)) };
}

/** Renames a node, and its edges with it (references in templates are the user's to change: they read them). */
export function renameNode(graph: CanvasGraph, from: string, to: string): CanvasGraph {
  const rename = (id: string) => (id === from ? to : id);
  return {
    nodes: graph.nodes.map((node) => (node.id === from ? { ...node, id: to } : node)),
    edges: graph.edges.map((edge) => ({ ...edge, from: rename(edge.from), to: rename(edge.to) })),
  };
}

/** The nodes a node may quote: every node with a path to it, nearest first. */
export function upstreamOf(graph: CanvasGraph, id: string): CanvasNode[] {
  const seen = new Set<string>();
  const queue = [id];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const edge of graph.edges) {
      if (edge.to === current && !seen.has(edge.from) && edge.from !== id) {
        seen.add(edge.from);
        queue.push(edge.from);
      }
    }
  }
  return graph.nodes.filter((node) => seen.has(node.id)).sort((a, b) => [...seen].indexOf(a.id) - [...seen].indexOf(b.id));
}

/** `when` as the API takes it from what a person typed: "true"/"false" are a condition's booleans, anything else a class name. */
export function parseWhen(text: string): boolean | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true';
  return trimmed;
}
