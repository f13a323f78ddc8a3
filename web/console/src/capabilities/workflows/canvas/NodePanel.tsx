import { useState } from 'react';
import { Button, Input, Label, TextField } from 'react-aria-components';
import { ConfigField } from './ConfigField.tsx';
import type { CanvasNode } from './graph.ts';
import { useCanvasText } from './messages.ts';
import { useNodeText } from './node-text.ts';
import { fieldsOf } from './node-types.ts';
import { NodeTrace } from './NodeTrace.tsx';
import type { useGraphEditor } from './use-graph-editor.ts';
import type { NodeAttempt, WorkflowRun } from './workflow-api.ts';

const NODE_ID = /^[a-z][a-z0-9_]{0,63}$/;

type Props = {
  editor: ReturnType<typeof useGraphEditor>;
  node: CanvasNode;
  faults: string[];
  workflowId: string | undefined;
  run: WorkflowRun | null;
  trace: NodeAttempt[];
  onRunFrom(nodeId: string): void;
};

/** The selected node: its id, its config as form fields, the server's faults with it, and what the run on show did with it. */
export function NodePanel({ editor, node, faults, workflowId, run, trace, onRunFrom }: Props) {
  const t = useCanvasText();
  const { typeName } = useNodeText();
  return (
    <aside className="node-panel card stack" aria-labelledby="node-panel-title">
      <div className="spread">
        <h2 id="node-panel-title">{t('nodeTitle', { id: node.id, name: typeName(node.type) })}</h2>
        <span className="type-id" title={t('typeIdHint')}>{node.type}</span>
      </div>
      {faults.length > 0 && (
        <ul className="node-faults" aria-label={t('nodeFaults')}>
          {faults.map((fault) => (
            <li key={fault}>{fault}</li>
          ))}
        </ul>
      )}
      <NodeIdField key={node.id} id={node.id} taken={editor.graph.nodes.map((n) => n.id)} onRename={(to) => editor.rename(node.id, to)} />
      {fieldsOf(node).map((spec) => (
        <ConfigField
          key={`${node.id}.${spec.name}`}
          spec={spec}
          nodeType={node.type}
          value={node.config[spec.name]}
          graph={editor.graph}
          nodeId={node.id}
          onChange={(value) => {
            const config = { ...node.config };
            if (value === undefined) delete config[spec.name];
            else config[spec.name] = value;
            editor.setConfig(node.id, config, spec.name);
          }}
        />
      ))}
      <Button className="react-aria-Button danger" onPress={() => editor.remove([node.id], [])}>
        {t('deleteNode')}
      </Button>
      <NodeTrace node={node} graph={editor.graph} workflowId={workflowId} run={run} trace={trace} onRunFrom={onRunFrom} />
    </aside>
  );
}

/** The id, renamed when the field is left or Enter pressed, if it is a free id of the API's pattern. */
function NodeIdField({ id, taken, onRename }: { id: string; taken: string[]; onRename(to: string): void }) {
  const t = useCanvasText();
  const [text, setText] = useState(id);
  const invalid = text !== id && (!NODE_ID.test(text) || taken.includes(text));
  const commit = () => {
    if (text !== id && !invalid) onRename(text);
  };
  return (
    <TextField value={text} onChange={setText} isInvalid={invalid} onBlur={commit} onKeyDown={(e) => e.key === 'Enter' && commit()}>
      <Label>{t('nodeId')}</Label>
      <Input className="react-aria-Input mono" />
      <span slot="description" className="hint">
        {invalid ? t('nodeIdInvalid') : t('nodeIdHint', { example: `{{${id}.field}}` })}
      </span>
    </TextField>
  );
}
