import { useCallback, useMemo, useState } from 'react';
import { addNode, type CanvasEdge, type CanvasGraph, connect, freshNodeId, removeEdge, removeNode, renameNode, replaceConfig } from './graph.ts';
import { type History, historyOf, record, redo, undo } from './history.ts';
import { layOut, placeNew, type Positions } from './layout.ts';
import { initialConfig } from './node-types.ts';

export type Selection = { kind: 'node'; id: string } | { kind: 'edge'; key: string } | null;

/**
 * The graph being edited: its undo history, where each node is drawn and what is selected. Every
 * change of the graph goes through `edit`, so undo and redo cover them all; moving a node is not
 * an edit of the graph (the API stores no positions) and is not undone.
 */
export function useGraphEditor(initial: CanvasGraph) {
  const [history, setHistory] = useState<History>(() => historyOf(initial));
  const [positions, setPositions] = useState<Positions>(() => layOut(initial));
  const [selection, setSelection] = useState<Selection>(null);
  // Counts the layouts since opening, so the view can follow a new one (and not a node dragged).
  const [layoutRound, setLayoutRound] = useState(0);
  const graph = history.present;

  const edit = useCallback(
    (change: (graph: CanvasGraph) => CanvasGraph, burst?: string) => setHistory((h) => record(h, change(h.present), burst)),
    [],
  );

  const actions = useMemo(
    () => ({
      add(type: string) {
        const id = freshNodeId(type, history.present);
        edit((g) => addNode(g, { id, type, config: initialConfig(type) }));
        setPositions((p) => ({ ...p, [id]: placeNew(p) }));
        setSelection({ kind: 'node', id });
        return id;
      },
      connect: (edge: CanvasEdge) => edit((g) => connect(g, edge)),
      /** Nodes (with their edges) and edges, as one edit: what the Delete key or button removes. */
      remove(nodeIds: readonly string[], edgeKeys: readonly string[]) {
        edit((g) => edgeKeys.reduce(removeEdge, nodeIds.reduce(removeNode, g)));
        setSelection(null);
      },
      setConfig: (id: string, config: Record<string, unknown>, field: string) => edit((g) => replaceConfig(g, id, config), `${id}.${field}`),
      rename(from: string, to: string) {
        edit((g) => renameNode(g, from, to));
        setPositions((p) => ({ ...p, [to]: p[from] ?? placeNew(p) }));
        setSelection({ kind: 'node', id: to });
      },
      layOut() {
        setPositions(layOut(history.present));
        setLayoutRound((n) => n + 1);
      },
      undo: () => setHistory(undo),
      redo: () => setHistory(redo),
      /** Another graph altogether (theirs, after a conflict): a fresh history and layout. */
      replace(next: CanvasGraph) {
        setHistory(historyOf(next));
        setPositions(layOut(next));
        setLayoutRound((n) => n + 1);
        setSelection(null);
      },
    }),
    [edit, history.present],
  );

  return { graph, positions, setPositions, layoutRound, selection, setSelection, canUndo: history.past.length > 0, canRedo: history.future.length > 0, ...actions };
}
