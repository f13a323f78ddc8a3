import { Graph, layout } from '@dagrejs/dagre';
import type { CanvasGraph } from './graph.ts';

export type Position = { x: number; y: number };
export type Positions = Record<string, Position>;

/** The size the canvas draws a node at (canvas.css's .flow-node): dagre spaces them by it. */
export const NODE_WIDTH = 200;
export const NODE_HEIGHT = 64;

/**
 * Where each node goes, left to right in the order of the flow: the API stores no positions (a
 * graph is what runs, not a drawing), so every opening lays the graph out again. Pure: the same
 * graph always gives the same picture. Positions are React Flow's, the node's top-left corner.
 */
export function layOut(graph: CanvasGraph): Positions {
  const g = new Graph();
  g.setGraph({ rankdir: 'LR', nodesep: 32, ranksep: 72, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of graph.nodes) g.setNode(node.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const edge of graph.edges) if (g.hasNode(edge.from) && g.hasNode(edge.to)) g.setEdge(edge.from, edge.to);
  layout(g);
  const positions: Positions = {};
  for (const node of graph.nodes) {
    const { x, y } = g.node(node.id);
    positions[node.id] = { x: x - NODE_WIDTH / 2, y: y - NODE_HEIGHT / 2 };
  }
  return positions;
}

/** A node added after the layout: right of the right-most node, so it is seen and overlaps nothing. */
export function placeNew(positions: Positions): Position {
  const all = Object.values(positions);
  if (all.length === 0) return { x: 16, y: 16 };
  const right = Math.max(...all.map((p) => p.x));
  const top = Math.min(...all.map((p) => p.y));
  return { x: right + NODE_WIDTH + 72, y: top };
}
