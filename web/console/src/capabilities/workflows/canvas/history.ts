import type { CanvasGraph } from './graph.ts';

/** The graph with what came before and after it: undo and redo walk these. */
export type History = { past: CanvasGraph[]; present: CanvasGraph; future: CanvasGraph[]; burst?: string };

/** How many edits undo remembers: enough for a session's work, bounded for a long one. */
const LIMIT = 200;

export const historyOf = (graph: CanvasGraph): History => ({ past: [], present: graph, future: [] });

/**
 * An edit: the old graph goes to the past, and whatever had been undone is forgotten. An edit that
 * changes nothing is not one. Edits of one burst (the keystrokes typed into one field, named by
 * `burst`) are one step, so undo takes back the field's change rather than its last letter.
 */
export function record(history: History, next: CanvasGraph, burst?: string): History {
  if (next === history.present) return history;
  if (burst !== undefined && burst === history.burst) return { ...history, present: next, future: [] };
  return { past: [...history.past, history.present].slice(-LIMIT), present: next, future: [], burst };
}

export function undo(history: History): History {
  const previous = history.past.at(-1);
  if (!previous) return history;
  return { past: history.past.slice(0, -1), present: previous, future: [history.present, ...history.future] };
}

export function redo(history: History): History {
  const [next, ...rest] = history.future;
  if (!next) return history;
  return { past: [...history.past, history.present], present: next, future: rest };
}
