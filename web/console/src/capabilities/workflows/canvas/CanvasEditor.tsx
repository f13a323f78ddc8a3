import { useEffect, useState } from 'react';
import { useCan } from '../../../session/session.tsx';
import { CanvasToolbar } from './CanvasToolbar.tsx';
import { faultsByNode } from './faults.ts';
import { FlowView } from './FlowView.tsx';
import { useCanvasText } from './messages.ts';
import { NodePanel } from './NodePanel.tsx';
import { startOnly } from './node-types.ts';
import { Palette } from './Palette.tsx';
import { RunPanel } from './RunPanel.tsx';
import { SaveNotes } from './SaveNotes.tsx';
import { useGraphEditor } from './use-graph-editor.ts';
import { useRun } from './use-run.ts';
import { useSave } from './use-save.ts';
import type { Workflow } from './workflow-api.ts';
import './canvas.css';

/** Ctrl+Z / Cmd+Z undoes and with Shift redoes, except in a text field, whose own undo takes the keys. */
function useUndoKeys(undo: () => void, redo: () => void) {
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 'z') return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('input, textarea, [contenteditable="true"]')) return;
      event.preventDefault();
      if (event.shiftKey) redo();
      else undo();
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [undo, redo]);
}

/** The workflow canvas: palette, graph, the selected node's panel, saving and publishing, and the run panel. */
export function CanvasEditor({ stored, initialName }: { stored: Workflow | null; initialName: string }) {
  const t = useCanvasText();
  const editor = useGraphEditor(stored?.graph ?? startOnly());
  const [name, setName] = useState(stored?.name ?? initialName);
  const [clean, setClean] = useState({ graph: editor.graph, name });
  const saving = useSave(stored, (theirs) => {
    editor.replace(theirs.graph);
    setName(theirs.name);
    setClean({ graph: theirs.graph, name: theirs.name });
  });
  const workflowId = saving.saved?.id;
  const runs = useRun(workflowId);
  // A read key sees the graph, its runs and their traces; the server would refuse any change, so no control offers one.
  const canWrite = useCan('write');
  useUndoKeys(editor.undo, editor.redo);

  const dirty = clean.graph !== editor.graph || clean.name !== name;
  const draft = () => ({ name: name.trim(), description: saving.saved?.description ?? null, graph: editor.graph });
  const afterSave = (graph: typeof editor.graph) => (outcome: string) => outcome === 'saved' && setClean({ graph, name });
  const save = () => void saving.save(draft()).then(afterSave(editor.graph));
  const overwrite = () => void saving.overwrite(draft()).then(afterSave(editor.graph));
  const selection = editor.selection;
  const selected = selection?.kind === 'node' ? editor.graph.nodes.find((node) => node.id === selection.id) : undefined;
  const faults = faultsByNode(saving.faults);

  return (
    <section className="canvas-screen stack">
      <CanvasToolbar editor={editor} saving={saving} name={name} onName={setName} dirty={dirty} onSave={save} canWrite={canWrite} />
      <SaveNotes saving={saving} onOverwrite={overwrite} onSelectNode={(id) => editor.setSelection({ kind: 'node', id })} />
      <div className="canvas-body">
        {canWrite ? <Palette onAdd={editor.add} /> : <div />}
        <FlowView editor={editor} statuses={runs.statuses} faults={faults} canWrite={canWrite} />
        {selected ? (
          <NodePanel
            editor={editor}
            node={selected}
            faults={faults[selected.id] ?? []}
            workflowId={workflowId}
            run={runs.run}
            trace={runs.trace}
            onRunFrom={(nodeId) => runs.run && void runs.start({ inputs: runs.run.inputs, from: { run_id: runs.run.id, node_id: nodeId } })}
          />
        ) : (
          <aside className="node-panel card muted">{t('selectNode')}</aside>
        )}
      </div>
      <RunPanel graph={editor.graph} runs={runs} canRun={canWrite && Boolean(workflowId) && !dirty} runHint={!workflowId ? t('saveFirst') : dirty ? t('unsavedRun') : null} />
    </section>
  );
}
