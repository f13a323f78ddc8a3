import { Background, Controls, type Edge, type EdgeChange, MarkerType, type NodeChange, ReactFlow, useNodesInitialized, useReactFlow } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useEffect, useMemo, useState } from 'react';
import { edgeKey } from './graph.ts';
import { FlowNode, type FlowNodeType } from './FlowNode.tsx';
import { placeNew } from './layout.ts';
import { unusedBranch } from './node-types.ts';
import { useCanvasText, useFlowLabels } from './messages.ts';
import { useNodeText } from './node-text.ts';
import type { Statuses } from './run-status.ts';
import type { useGraphEditor } from './use-graph-editor.ts';

type Props = { editor: ReturnType<typeof useGraphEditor>; statuses: Statuses; faults: Record<string, string[]>; canWrite: boolean };

const NODE_TYPES = { workflow: FlowNode };
/** Never zoomed in past life size: a small graph stays readable rather than filling the area. */
const FIT = { maxZoom: 1, padding: 0.15 };

/**
 * The graph drawn by React Flow: nodes and edges are derived from the edited graph on each render
 * (the graph is the data, the drawing follows it), and what React Flow reports (a move, a
 * selection, a connection, a deletion) goes back into the editor. Nodes and edges take focus:
 * Tab reaches them, Enter selects, Delete removes, arrow keys move.
 */
export function FlowView({ editor, statuses, faults, canWrite }: Props) {
  const t = useCanvasText();
  const ariaLabelConfig = useFlowLabels();
  const { typeName } = useNodeText();
  // React Flow measures each node once drawn; kept so that new node objects keep their size.
  const [measured, setMeasured] = useState<Record<string, { width: number; height: number }>>({});
  const { graph, positions, selection } = editor;

  const nodes = useMemo<FlowNodeType[]>(
    () =>
      graph.nodes.map((node) => {
        const status = statuses[node.id];
        const nodeFaults = faults[node.id] ?? [];
        const statusText = status && t(`status_${status}`);
        return {
          id: node.id,
          type: 'workflow',
          position: positions[node.id] ?? placeNew(positions),
          measured: measured[node.id],
          selected: selection?.kind === 'node' && selection.id === node.id,
          ariaLabel: [`${node.id} (${typeName(node.type)})`, statusText, nodeFaults.length > 0 && t('faultCount', { count: nodeFaults.length })].filter(Boolean).join(', '),
          data: { type: node.type, typeName: typeName(node.type), status, statusText, faults: nodeFaults, faultText: nodeFaults.length > 0 ? t('faultCount', { count: nodeFaults.length }) : undefined },
        };
      }),
    [graph.nodes, positions, measured, selection, statuses, faults, t, typeName],
  );

  const edges = useMemo<Edge[]>(
    () =>
      graph.edges.map((edge) => {
        const key = edgeKey(edge);
        const label = edge.when === undefined ? undefined : String(edge.when);
        return {
          id: key,
          source: edge.from,
          target: edge.to,
          label,
          selected: selection?.kind === 'edge' && selection.key === key,
          markerEnd: { type: MarkerType.ArrowClosed },
          ariaLabel: t(label === undefined ? 'edgeLabel' : 'edgeWhenLabel', { from: edge.from, to: edge.to, when: label }),
        };
      }),
    [graph.edges, selection, t],
  );

  function onNodesChange(changes: NodeChange<FlowNodeType>[]) {
    for (const change of changes) {
      if (change.type === 'position' && change.position) editor.setPositions((p) => ({ ...p, [change.id]: change.position! }));
      if (change.type === 'dimensions' && change.dimensions) setMeasured((m) => ({ ...m, [change.id]: change.dimensions! }));
      if (change.type === 'select') editor.setSelection((s) => (change.selected ? { kind: 'node', id: change.id } : s?.kind === 'node' && s.id === change.id ? null : s));
    }
  }

  function onEdgesChange(changes: EdgeChange[]) {
    for (const change of changes) {
      if (change.type === 'select') editor.setSelection((s) => (change.selected ? { kind: 'edge', key: change.id } : s?.kind === 'edge' && s.key === change.id ? null : s));
    }
  }

  return (
    <div className="flow-area">
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={(c) => editor.connect({ from: c.source, to: c.target, when: unusedBranch(graph, c.source) })}
        onDelete={({ nodes: gone, edges: cut }) => editor.remove(gone.map((n) => n.id), cut.map((e) => e.id))}
        deleteKeyCode={canWrite ? 'Delete' : null}
        nodesConnectable={canWrite}
        ariaLabelConfig={ariaLabelConfig}
        fitView
        fitViewOptions={FIT}
        minZoom={0.1}
      >
        <Background />
        <Controls showInteractive={false} />
        <ReadyMark count={nodes.length} />
        <FitOnChange trigger={`${nodes.length}:${editor.layoutRound}`} />
      </ReactFlow>
    </div>
  );
}

/** Brings every node into view when nodes come or go, or the graph is laid out again; a node moved by hand leaves the view alone. */
function FitOnChange({ trigger }: { trigger: string }) {
  const { fitView } = useReactFlow();
  const initialized = useNodesInitialized();
  const [fitted, setFitted] = useState(trigger);
  useEffect(() => {
    if (!initialized || fitted === trigger) return;
    setFitted(trigger);
    void fitView(FIT);
  }, [initialized, trigger, fitted, fitView]);
  return null;
}

/**
 * Marks the moment every node of the opened graph is drawn and measured (`kbqa:canvas-ready`), so
 * that `npm run bench -- console_canvas` reads the time to open a graph from the page itself.
 */
function ReadyMark({ count }: { count: number }) {
  const initialized = useNodesInitialized();
  const [marked, setMarked] = useState(false);
  useEffect(() => {
    if (marked || !initialized || count === 0) return;
    performance.mark('kbqa:canvas-ready', { detail: { nodes: count } });
    setMarked(true);
  }, [initialized, count, marked]);
  return null;
}
